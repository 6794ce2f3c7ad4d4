// Billable meters: one count per billable live check and month, stored in the transaction that stores the check.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { UNLIMITED } from './plans.ts';
import { monthBucket } from './usage.ts';
import { incrementBelow, readBuckets } from './usage-repository.ts';

export const METERS = ['kycChecks', 'kybChecks', 'amlScreenings', 'kyaChecks'] as const;
export type Meter = (typeof METERS)[number];

export function meterBucket(meter: Meter, now: Date): string {
  return `meter:${meter}:${now.toISOString().slice(0, 7)}`;
}

export interface Meters {
  /**
   * Counts one billable unit. Call it with the transaction that stores the record it bills for, so the record
   * and its meter are committed together.
   */
  record(trx: Kysely<Database>, accountId: string, meter: Meter, now: Date): Promise<void>;
  read(accountId: string, now: Date): Promise<Record<Meter, number>>;
}

/**
 * Meters are read on every validate-key call but change only when a billable check is stored, so reads are
 * cached for a second; an account this instance just billed is read fresh for two seconds, which covers the
 * commit of the transaction that billed it.
 */
export function createMeters(db: Kysely<Database>, cacheMs = 1000): Meters {
  const cache = new Map<string, { at: number; month: string; values: Record<Meter, number> }>();
  const freshUntil = new Map<string, number>();
  return {
    async record(trx, accountId, meter, now) {
      cache.delete(accountId);
      freshUntil.set(accountId, Date.now() + 2 * cacheMs);
      await incrementBelow(trx, accountId, meterBucket(meter, now), UNLIMITED);
    },
    async read(accountId, now) {
      // The month's name, formatted once a day (not per call).
      const month = monthBucket(now);
      const cached = cache.get(accountId);
      if (cached && cached.month === month && Date.now() - cached.at < cacheMs) return cached.values;
      const stored = await readBuckets(
        db,
        accountId,
        METERS.map((meter) => meterBucket(meter, now)),
      );
      const values = Object.fromEntries(METERS.map((meter) => [meter, stored.get(meterBucket(meter, now)) ?? 0])) as Record<Meter, number>;
      if ((freshUntil.get(accountId) ?? 0) < Date.now()) {
        freshUntil.delete(accountId);
        if (cache.size > 10_000) cache.clear();
        cache.set(accountId, { at: Date.now(), month, values });
      }
      return values;
    },
  };
}
