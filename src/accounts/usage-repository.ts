// The durable usage counters (table usage_counters): the only code that reads or writes them.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { UNLIMITED } from './plans.ts';

export async function readBuckets(db: Kysely<Database>, accountId: string, buckets: string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('usage_counters')
    .select(['bucket', 'count'])
    .where('account_id', '=', accountId)
    .where('bucket', 'in', buckets)
    .execute();
  return new Map(rows.map((row) => [row.bucket, Number(row.count)]));
}

/** Raises stored counters to the given values (never lowers them: another writer may be ahead). */
export async function persistAtLeast(db: Kysely<Database>, rows: { account_id: string; bucket: string; count: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('usage_counters')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['account_id', 'bucket']).doUpdateSet((eb) => ({
        count: eb
          .case()
          .when(eb.ref('excluded.count'), '>', eb.ref('usage_counters.count'))
          .then(eb.ref('excluded.count'))
          .else(eb.ref('usage_counters.count'))
          .end(),
      })),
    )
    .execute();
}

/** Adds one to a durable counter, but only while it is below `ceiling`; returns the new count or null if refused. */
export async function incrementBelow(db: Kysely<Database>, accountId: string, bucket: string, ceiling: number): Promise<number | null> {
  const row = await db
    .insertInto('usage_counters')
    .values({ account_id: accountId, bucket, count: 1 })
    .onConflict((oc) => {
      const update = oc.columns(['account_id', 'bucket']).doUpdateSet((eb) => ({ count: eb('usage_counters.count', '+', 1) }));
      return ceiling === UNLIMITED ? update : update.where('usage_counters.count', '<', ceiling);
    })
    .returning('count')
    .executeTakeFirst();
  return row ? Number(row.count) : null;
}

/**
 * Adds up to `amount` to a durable counter without passing `ceiling`, in the caller's transaction (Postgres: the
 * row stays locked until it ends); returns the count before and after.
 */
export async function incrementUpTo(trx: Kysely<Database>, accountId: string, bucket: string, amount: number, ceiling: number): Promise<{ before: number; after: number }> {
  await trx.insertInto('usage_counters').values({ account_id: accountId, bucket, count: 0 }).onConflict((oc) => oc.doNothing()).execute();
  const { count } = await trx
    .selectFrom('usage_counters')
    .select('count')
    .where('account_id', '=', accountId)
    .where('bucket', '=', bucket)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const before = Number(count);
  const after = ceiling === UNLIMITED ? before + amount : Math.max(before, Math.min(before + amount, ceiling));
  if (after !== before) {
    await trx.updateTable('usage_counters').set({ count: sql<number>`${after}` }).where('account_id', '=', accountId).where('bucket', '=', bucket).execute();
  }
  return { before, after };
}

/** Takes back what a batch counted but did not admit, in the same transaction. */
export async function decrementBy(trx: Kysely<Database>, accountId: string, bucket: string, amount: number): Promise<void> {
  await trx
    .updateTable('usage_counters')
    .set((eb) => ({ count: eb('count', '-', amount) }))
    .where('account_id', '=', accountId)
    .where('bucket', '=', bucket)
    .execute();
}
