import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage/database.ts';

export function accountMigrations(_dialect: Dialect): Record<string, Migration> {
  return {
    '001_accounts': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('accounts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('plan_id', 'text', (c) => c.notNull())
          .addColumn('daily_cap_override', 'integer')
          .addColumn('monthly_quota_override', 'integer')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('display_prefix', 'text', (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .addColumn('last_used_at', 'text')
          .execute();
        await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
        await db.schema
          .createTable('signing_keys')
          .addColumn('kid', 'text', (c) => c.primaryKey())
          .addColumn('algorithm', 'text', (c) => c.notNull())
          .addColumn('private_jwk', 'text', (c) => c.notNull())
          .addColumn('public_jwk', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('retired_at', 'text')
          .execute();
        await db.schema
          .createTable('usage_counters')
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('bucket', 'text', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_counters_pk', ['account_id', 'bucket'])
          .execute();
        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
  };
}
