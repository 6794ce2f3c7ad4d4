import type { Kysely, Migration } from 'kysely';

export function webhookMigrations(): Record<string, Migration> {
  return {
    '110_webhooks': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('webhook_endpoints')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('events', 'text', (c) => c.notNull())
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('disabled_reason', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').columns(['account_id', 'environment']).execute();
        await db.schema
          .createTable('webhook_deliveries')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('event_type', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('last_status_code', 'integer')
          .addColumn('last_error', 'text')
          .addColumn('last_attempt_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('delivered_at', 'text')
          .addUniqueConstraint('webhook_deliveries_once', ['endpoint_id', 'event_id'])
          .execute();
        await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();
      },
    },
    // A delivery sent again by hand gets a retry period of its own.
    '111_webhook_retry_from': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('webhook_deliveries').addColumn('retry_from', 'text').execute();
      },
    },
  };
}
