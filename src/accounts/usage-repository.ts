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
 * Postgres only: counts up to `amount` requests of an account on its day and month rows (the `count_usage` procedure
 * of the accounts migrations), durably once it returns. Returns the counts before and the number admitted, or
 * undefined when a row does not exist yet (nothing is counted then). An amount of 0 reads durable counts.
 */
export async function countBatch(
  db: Kysely<Database>,
  accountId: string,
  buckets: { day: string; month: string },
  amount: number,
  ceilings: { perDay: number; perMonth: number },
): Promise<{ today: number; thisMonth: number; admitted: number } | undefined> {
  const { rows } = await sql<{ today: number | null; this_month: number | null; admitted: number }>`
    CALL count_usage(${accountId}, ${buckets.day}, ${buckets.month}, ${amount}, ${ceilings.perDay}, ${ceilings.perMonth})
  `.execute(db);
  const [row] = rows;
  if (row.today === null || row.this_month === null) return undefined;
  return { today: Number(row.today), thisMonth: Number(row.this_month), admitted: Number(row.admitted) };
}

/** Creates an account's counter rows at zero where they do not exist yet. */
export async function ensureBuckets(db: Kysely<Database>, accountId: string, buckets: string[]): Promise<void> {
  await db
    .insertInto('usage_counters')
    .values(buckets.map((bucket) => ({ account_id: accountId, bucket, count: 0 })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
