import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage/database.ts';

export function kybMigrations(_dialect: Dialect): Record<string, Migration> {
  return {
    '030_kyb_checks': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('kyb_checks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('kyb_checks_account').on('kyb_checks').columns(['account_id', 'created_at']).execute();
      },
    },
  };
}
