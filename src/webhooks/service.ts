// Webhook endpoints and deliveries: the dispatcher takes undispatched events of the outbox in batches and hands each
// to the tenant's endpoints of its environment (in one transaction: deliveries and their jobs stored, events marked
// dispatched; on Postgres SKIP LOCKED lets instances sweep side by side), and each delivery attempt is a job of the
// leased queue, so nothing is lost or sent twice at once when instances die. A failed attempt queues
// the next with exponential back-off; after `retryForMs` the endpoint is disabled with the reason, and a
// `webhook.disabled` event tells the tenant's other endpoints.
import { Agent, request } from 'undici';
import type { Kysely } from 'kysely';
import type { KeyEnvironment, RecordEnvironment } from '../core.ts';
import { DomainError } from '../errors.ts';
import type { EventLog, EventType } from '../events/log.ts';
import { newId } from '../ids.ts';
import { checkEnvironment } from '../storage/checks.ts';
import { type ClaimedJob, completeJob, completeJobWith, enqueueJob } from '../storage/jobs.ts';
import type { Dialect } from '../storage/database.ts';
import type { Database } from '../storage/schema.ts';
import { checkPublicHost, publicOnlyLookup } from './addresses.ts';
import type { WebhooksConfig } from './config.ts';
import type { DeliveryRow, EndpointRow, WebhookRepository } from './repository.ts';
import { newSigningSecret, signatureHeaders } from './signing.ts';

export const DELIVER_JOB = 'webhooks.deliver';
const MAX_BACKOFF_MS = 3_600_000;
/** An endpoint's answer is read (and dropped) up to this size. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface Endpoint {
  webhookId: string;
  url: string;
  events: EventType[];
  environment: RecordEnvironment;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  createdAt: string;
}

export interface Delivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  status: DeliveryRow['status'];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhooksService {
  /** The secret is in the answer once. DomainError invalid_input for a URL this key may not use. */
  create(caller: { accountId: string; keyEnvironment: KeyEnvironment }, input: { url: string; events: EventType[] }): Promise<Endpoint & { secret: string }>;
  list(accountId: string): Promise<Endpoint[]>;
  find(accountId: string, id: string): Promise<Endpoint | undefined>;
  remove(accountId: string, id: string): Promise<boolean>;
  rotateSecret(accountId: string, id: string): Promise<{ secret: string } | undefined>;
  /**
   * Turns a disabled endpoint back on and sends what was still waiting, with a new retry period; what had failed
   * stays in its delivery log, to replay.
   */
  enable(accountId: string, id: string): Promise<Endpoint | undefined>;
  deliveries(accountId: string, id: string, limit: number): Promise<Delivery[] | undefined>;
  /** Sends a delivery again now, whatever its state; undefined when the tenant has no such delivery. */
  replay(accountId: string, id: string, deliveryId: string): Promise<Delivery | undefined>;
  /** Dispatches one batch of undispatched events; the number taken (a full batch means more may wait). */
  dispatchBatch(): Promise<number>;
  deliverJob(job: ClaimedJob, workerId: string): Promise<void>;
}

const toEndpoint = (row: EndpointRow): Endpoint => ({
  webhookId: row.id,
  url: row.url,
  events: JSON.parse(row.events) as EventType[],
  environment: row.environment,
  status: row.status,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  deliveryId: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
});

const describeDuration = (ms: number) => (ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 1000)} s`);

/** Why this key may not send events to this URL; null when it may. Live keys: https to a public address only. */
export async function refusedUrl(url: string, environment: RecordEnvironment): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) return 'must be an http or https URL';
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (environment === 'sandbox') return null;
  if (parsed.protocol !== 'https:') return 'must be https for a live key';
  const refused = await checkPublicHost(parsed.hostname);
  return refused && `must reach a public address for a live key (${refused})`;
}

export const DISPATCH_BATCH = 500;

export function createWebhooksService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  repository: WebhookRepository;
  config: WebhooksConfig;
  events: EventLog;
  kickWorker(): void;
}): WebhooksService {
  const { db, repository, config } = deps;
  // Live endpoints connect only to the public addresses their names resolve to; sandbox ones anywhere (localhost).
  const liveAgent = new Agent({ connect: { lookup: publicOnlyLookup as never }, connectTimeout: config.timeoutMs });
  const sandboxAgent = new Agent({ connectTimeout: config.timeoutMs });

  async function attempt(endpoint: EndpointRow, delivery: DeliveryRow, now: Date): Promise<{ ok: boolean; statusCode: number | null; error: string | null }> {
    try {
      const response = await request(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'kyx-webhooks/1', ...signatureHeaders(endpoint.secret, delivery.id, delivery.payload, now) },
        body: delivery.payload,
        dispatcher: endpoint.environment === 'live' ? liveAgent : sandboxAgent,
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
      });
      await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `answered ${response.statusCode}` };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, statusCode: null, error: `${code ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`.slice(0, 500) };
    }
  }

  /** Queues these deliveries to be sent now, each with a retry period starting now. */
  async function restart(trx: Kysely<Database>, deliveryIds: string[], now: Date): Promise<void> {
    if (deliveryIds.length === 0) return;
    await repository.restartDeliveries(trx, deliveryIds, now.toISOString());
    for (const deliveryId of deliveryIds) await enqueueJob(trx, DELIVER_JOB, { deliveryId }, now);
  }

  return {
    async create(caller, input) {
      const environment = checkEnvironment(caller.keyEnvironment);
      const refused = await refusedUrl(input.url, environment);
      if (refused) throw DomainError.invalid([{ path: '/url', message: refused }]);
      const now = new Date().toISOString();
      const row: EndpointRow = {
        id: newId('whk'),
        account_id: caller.accountId,
        environment,
        url: input.url,
        events: JSON.stringify([...new Set(input.events)]),
        secret: newSigningSecret(),
        status: 'enabled',
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      };
      await repository.insertEndpoint(row);
      return { ...toEndpoint(row), secret: row.secret };
    },

    list: async (accountId) => (await repository.listEndpoints(accountId)).map(toEndpoint),

    async find(accountId, id) {
      const row = await repository.findEndpoint(accountId, id);
      return row && toEndpoint(row);
    },

    remove: (accountId, id) => repository.deleteEndpoint(accountId, id),

    async rotateSecret(accountId, id) {
      const row = await repository.findEndpoint(accountId, id);
      if (!row) return undefined;
      const secret = newSigningSecret();
      await repository.updateEndpoint(db, id, { secret, updated_at: new Date().toISOString() });
      return { secret };
    },

    async enable(accountId, id) {
      const row = await repository.findEndpoint(accountId, id);
      if (!row) return undefined;
      const now = new Date();
      const changes = { status: 'enabled', disabled_reason: null, updated_at: now.toISOString() } as const;
      const waiting = await db.transaction().execute(async (trx) => {
        await repository.updateEndpoint(trx, id, changes);
        const pending = (await repository.pendingDeliveries(trx, id)).map((delivery) => delivery.id);
        await restart(trx, pending, now);
        return pending.length;
      });
      if (waiting > 0) deps.kickWorker();
      return toEndpoint({ ...row, ...changes });
    },

    async deliveries(accountId, id, limit) {
      const row = await repository.findEndpoint(accountId, id);
      return row && (await repository.listDeliveries(id, limit)).map(toDelivery);
    },

    async replay(accountId, id, deliveryId) {
      const delivery = await repository.findDelivery(accountId, id, deliveryId);
      if (!delivery) return undefined;
      await db.transaction().execute((trx) => restart(trx, [deliveryId], new Date()));
      deps.kickWorker();
      return toDelivery({ ...delivery, status: 'pending' });
    },

    async dispatchBatch() {
      let queued = 0;
      const taken = await db.transaction().execute(async (trx) => {
        const now = new Date();
        const events = await trx
          .selectFrom('events')
          .selectAll()
          .where('dispatched_at', 'is', null)
          .orderBy('created_at')
          .limit(DISPATCH_BATCH)
          .$if(deps.dialect === 'postgres', (query) => query.forUpdate().skipLocked())
          .execute();
        if (events.length === 0) return 0;
        const subscribers = new Map<string, EndpointRow[]>();
        const rows: DeliveryRow[] = [];
        for (const event of events) {
          const key = `${event.account_id}\0${event.environment}`;
          if (!subscribers.has(key)) subscribers.set(key, await repository.subscribers(trx, event.account_id, event.environment));
          const endpoints = subscribers.get(key)!.filter((endpoint) => (JSON.parse(endpoint.events) as string[]).includes(event.type));
          if (endpoints.length === 0) continue;
          const payload = JSON.stringify({ type: event.type, timestamp: event.created_at, data: JSON.parse(event.data) });
          for (const endpoint of endpoints) {
            rows.push({
              id: newId('msg'),
              endpoint_id: endpoint.id,
              account_id: event.account_id,
              event_id: event.id,
              event_type: event.type,
              payload,
              status: 'pending',
              attempts: 0,
              last_status_code: null,
              last_error: null,
              last_attempt_at: null,
              created_at: now.toISOString(),
              retry_from: null,
              delivered_at: null,
            });
          }
        }
        await repository.insertDeliveries(trx, rows);
        for (const row of rows) await enqueueJob(trx, DELIVER_JOB, { deliveryId: row.id }, now);
        await trx.updateTable('events').set({ dispatched_at: now.toISOString() }).where('id', 'in', events.map((event) => event.id)).execute();
        queued = rows.length;
        return events.length;
      });
      if (queued > 0) deps.kickWorker();
      return taken;
    },

    async deliverJob(job, workerId) {
      const { deliveryId } = job.payload as { deliveryId: string };
      const delivery = await repository.loadDelivery(deliveryId);
      const endpoint = delivery && (await repository.loadEndpoint(delivery.endpoint_id));
      if (!delivery || !endpoint || delivery.status !== 'pending' || endpoint.status !== 'enabled') {
        await completeJob(db, job, workerId, new Date());
        return;
      }
      const result = await attempt(endpoint, delivery, new Date());
      let retry = false;
      await completeJobWith(db, job, workerId, async (trx, now) => {
        const attempts = delivery.attempts + 1;
        const common = { attempts, last_status_code: result.statusCode, last_error: result.error, last_attempt_at: now.toISOString() };
        if (result.ok) {
          await repository.updateDelivery(trx, delivery.id, { ...common, status: 'delivered', delivered_at: now.toISOString() });
          return;
        }
        const wait = Math.min(MAX_BACKOFF_MS, config.retryBaseMs * 2 ** (attempts - 1));
        if (now.getTime() + wait - Date.parse(delivery.retry_from ?? delivery.created_at) > config.retryForMs) {
          await repository.updateDelivery(trx, delivery.id, { ...common, status: 'failed' });
          const reason = `deliveries failed for longer than ${describeDuration(config.retryForMs)} (last: ${result.error})`.slice(0, 500);
          // The notice, once however many deliveries give up together: the tenant's other endpoints that listen for
          // it hear of it with the cause (not the URL, which may hold the receiver's own token).
          if (await repository.disableEndpoint(trx, endpoint.id, reason, now.toISOString())) {
            await deps.events.emit(trx, { accountId: endpoint.account_id, environment: endpoint.environment, type: 'webhook.disabled', data: { webhookId: endpoint.id, reason } }, now);
          }
          return;
        }
        await repository.updateDelivery(trx, delivery.id, common);
        await enqueueJob(trx, DELIVER_JOB, { deliveryId: delivery.id }, new Date(now.getTime() + wait));
        retry = true;
      });
      if (retry) deps.kickWorker();
    },
  };
}

