import type { Kysely, Migration } from 'kysely';

export function eventMigrations(): Record<string, Migration> {
  return {
    '002_events': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('events')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('dispatched_at', 'text')
          .execute();
        await db.schema.createIndex('events_undispatched').on('events').columns(['dispatched_at', 'created_at']).execute();
        await db.schema.createIndex('events_account').on('events').columns(['account_id', 'created_at']).execute();
      },
    },
  };
}
