import type { Kysely, Migration } from 'kysely';

export function idempotencyMigrations(): Record<string, Migration> {
  return {
    '120_idempotency_keys': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('idempotency_keys')
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('request_hash', 'text')
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('response_status', 'integer')
          .addColumn('response_body', 'text')
          .addColumn('response_type', 'text')
          .addColumn('locked_until', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
      },
    },
  };
}
