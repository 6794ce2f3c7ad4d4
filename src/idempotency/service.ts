// Idempotency-Key on every POST under /api/v1 (Stripe's semantics): the first request with a key claims it and its
// answer is kept for 24 h; a retry with the same body gets that answer again, marked Idempotent-Replayed, without
// the work running twice or counting against the plan; another body with the same key is refused.
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { IdempotencyKeysTable } from './tables.ts';

export type StoredKey = Selectable<IdempotencyKeysTable>;

export interface StoredAnswer {
  status: number;
  body: string;
  contentType: string | null;
}

export type Claim = { owner: true } | { owner: false };

export type Outcome = { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' } | { kind: 'in_flight' };

export interface IdempotencyService {
  /** Claims the key for this request, or says another request (done or in flight) holds it. */
  claim(accountId: string, key: string, now?: Date): Promise<Claim>;
  /** The owner's request, once its body is known. */
  describe(accountId: string, key: string, requestHash: string): Promise<void>;
  complete(accountId: string, key: string, answer: StoredAnswer): Promise<void>;
  /** The owner never started its work (refused at the gate or by validation): the key is free again. */
  release(accountId: string, key: string): Promise<void>;
  /** What a request that did not claim the key gets: waits a bounded time for an owner still at work. */
  outcomeFor(accountId: string, key: string, requestHash: string): Promise<Outcome>;
  purgeExpired(now?: Date): Promise<number>;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body)}`).digest('hex');
}

/** JSON with object keys sorted, so the same body sent with its fields in another order hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function createIdempotencyService(
  db: Kysely<Database>,
  options: { ttlMs: number; leaseMs: number; waitMs: number; pollMs: number },
): IdempotencyService {
  const find = (accountId: string, key: string) =>
    db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();

  return {
    async claim(accountId, key, now = new Date()) {
      const at = now.toISOString();
      // An expired answer, or a claim whose owner died, no longer holds the key.
      await db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where((eb) => eb.or([eb('expires_at', '<', at), eb.and([eb('state', '=', 'in_flight'), eb('locked_until', '<', at)])]))
        .execute();
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({
          account_id: accountId,
          key,
          request_hash: null,
          state: 'in_flight',
          response_status: null,
          response_body: null,
          response_type: null,
          locked_until: new Date(now.getTime() + options.leaseMs).toISOString(),
          created_at: at,
          expires_at: new Date(now.getTime() + options.ttlMs).toISOString(),
        })
        .onConflict((conflict) => conflict.columns(['account_id', 'key']).doNothing())
        .executeTakeFirst();
      return { owner: Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 };
    },

    async describe(accountId, key, hash) {
      await db.updateTable('idempotency_keys').set({ request_hash: hash }).where('account_id', '=', accountId).where('key', '=', key).execute();
    },

    async complete(accountId, key, answer) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_status: answer.status, response_body: answer.body, response_type: answer.contentType })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
    },

    async release(accountId, key) {
      await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).where('state', '=', 'in_flight').execute();
    },

    async outcomeFor(accountId, key, hash) {
      const deadline = Date.now() + options.waitMs;
      for (;;) {
        const row = await find(accountId, key);
        if (row && row.request_hash !== null && row.request_hash !== hash) return { kind: 'reused' };
        if (row?.state === 'done') {
          return { kind: 'replay', answer: { status: row.response_status ?? 200, body: row.response_body ?? '', contentType: row.response_type } };
        }
        // Gone: the owner was refused before it started; in flight too long: tell the caller to retry.
        if (!row || Date.now() >= deadline) return { kind: 'in_flight' };
        await new Promise((resolve) => setTimeout(resolve, options.pollMs));
      }
    },

    async purgeExpired(now = new Date()) {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<', now.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
