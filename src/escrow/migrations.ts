import type { Kysely, Migration } from 'kysely';

export function escrowMigrations(): Record<string, Migration> {
  return {
    '060_escrows': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('escrows')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('amount', 'bigint', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('buyer', 'text', (c) => c.notNull())
          .addColumn('seller', 'text', (c) => c.notNull())
          .addColumn('description', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('escrows_account').on('escrows').column('account_id').execute();
      },
    },
  };
}
