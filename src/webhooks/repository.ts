import type { Kysely, Selectable } from 'kysely';
import type { RecordEnvironment } from '../core.ts';
import type { Database } from '../storage/schema.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './tables.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export function createWebhookRepository(db: Kysely<Database>) {
  return {
    insertEndpoint: (row: EndpointRow) => db.insertInto('webhook_endpoints').values(row).execute(),

    findEndpoint: (accountId: string, id: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst(),

    loadEndpoint: (id: string) => db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst(),

    listEndpoints: (accountId: string) =>
      db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute(),

    /** The enabled endpoints of a tenant's environment. */
    subscribers: (trx: Kysely<Database>, accountId: string, environment: RecordEnvironment) =>
      trx.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('environment', '=', environment).where('status', '=', 'enabled').execute(),

    updateEndpoint: (trx: Kysely<Database>, id: string, changes: Partial<Omit<EndpointRow, 'id'>>) =>
      trx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute(),

    /** Disables an enabled endpoint; false when it was not enabled (another worker disabled it first). */
    async disableEndpoint(trx: Kysely<Database>, id: string, reason: string, at: string): Promise<boolean> {
      const result = await trx
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_reason: reason, updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'enabled')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The endpoint's deliveries still waiting to be sent (their jobs ended while it was disabled). */
    pendingDeliveries: (trx: Kysely<Database>, endpointId: string) =>
      trx.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).where('status', '=', 'pending').execute(),

    async deleteEndpoint(accountId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const found = await trx.selectFrom('webhook_endpoints').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
        if (!found) return false;
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
        return true;
      });
    },

    insertDeliveries: async (trx: Kysely<Database>, rows: DeliveryRow[]) => {
      if (rows.length > 0) await trx.insertInto('webhook_deliveries').values(rows).onConflict((c) => c.columns(['endpoint_id', 'event_id']).doNothing()).execute();
    },

    loadDelivery: (id: string) => db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst(),

    findDelivery: (accountId: string, endpointId: string, id: string) =>
      db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', id)
        .where('endpoint_id', '=', endpointId)
        .where('account_id', '=', accountId)
        .executeTakeFirst(),

    listDeliveries: (endpointId: string, limit: number) =>
      db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),

    updateDelivery: (trx: Kysely<Database>, id: string, changes: Partial<Omit<DeliveryRow, 'id'>>) =>
      trx.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute(),

    /** Starts a new retry period for these deliveries. */
    restartDeliveries: (trx: Kysely<Database>, ids: string[], at: string) =>
      trx.updateTable('webhook_deliveries').set({ status: 'pending', retry_from: at }).where('id', 'in', ids).execute(),
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
