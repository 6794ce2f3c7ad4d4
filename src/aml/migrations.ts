import type { Kysely, Migration } from 'kysely';

export function amlMigrations(): Record<string, Migration> {
  return {
    '010_aml_screenings': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('aml_screenings')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('lists_version', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('aml_screenings_account').on('aml_screenings').columns(['account_id', 'created_at']).execute();
      },
    },
  };
}
