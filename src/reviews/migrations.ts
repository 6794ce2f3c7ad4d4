import type { Kysely, Migration } from 'kysely';

export function reviewMigrations(): Record<string, Migration> {
  return {
    '080_check_reviews': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('check_reviews')
          .addColumn('check_id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('decided_at', 'text', (c) => c.notNull())
          .addColumn('review', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('check_reviews_account').on('check_reviews').columns(['account_id', 'decided_at']).execute();
      },
    },
  };
}
