import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Database } from '../storage/schema.ts';
import { UNLIMITED } from './plans.ts';
import { countBatch, ensureBuckets, persistAtLeast, readBuckets } from './usage-repository.ts';
import { FLOOD_HIT_LUA } from '../storage/flood-window.ts';

/**
 * Day and month allowances, counted exactly: a request is admitted only if both counters are below their
 * ceilings, and then both move together. Three implementations share this contract:
 * - memory: one process owns the counters (the embedded default), written behind to SQL every second;
 * - sql: the account's waiting requests counted together in one locking procedure call (Postgres without Redis);
 * - redis: one Lua script for every instance, seeded from and written behind to SQL.
 */
export interface UsageCounter {
  consume(accountId: string, ceilings: Ceilings, now: Date): Promise<ConsumeResult>;
  /**
   * Redis only: counts the request in its client's flood window (see http/flood.ts) and, only if the window admits
   * it, consumes as `consume` does, in one script: one round trip instead of two. `usage` is absent when the window
   * refused the request, which then consumed nothing.
   */
  consumeAfterFlood?(flood: { key: string; ttlMs: number; limit: number }, accountId: string, ceilings: Ceilings, now: Date): Promise<{ flood: number; usage?: ConsumeResult }>;
  peek(accountId: string, now: Date): Promise<UsageCounts>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface Ceilings {
  perDay: number;
  perMonth: number;
}

export interface UsageCounts {
  today: number;
  thisMonth: number;
}

export type ConsumeResult = (UsageCounts & { allowed: true }) | (UsageCounts & { allowed: false; refusedBy: 'day' | 'month' });

const DAY_MS = 86_400_000;
// Every counted request names its buckets several times: they are formatted once per UTC day, not per call.
let calendar = { dayNumber: Number.NaN, day: '', month: '' };

function bucketsOf(now: Date): { day: string; month: string } {
  const dayNumber = Math.floor(now.getTime() / DAY_MS);
  if (dayNumber !== calendar.dayNumber) {
    const iso = now.toISOString();
    calendar = { dayNumber, day: `day:${iso.slice(0, 10)}`, month: `month:${iso.slice(0, 7)}` };
  }
  return calendar;
}

export function dayBucket(now: Date): string {
  return bucketsOf(now).day;
}

export function monthBucket(now: Date): string {
  return bucketsOf(now).month;
}

/** Next 00:00 UTC. */
export function nextDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** 1st of next month, 00:00 UTC. */
export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

function below(count: number, ceiling: number): boolean {
  return ceiling === UNLIMITED || count < ceiling;
}

/** The admission rule every implementation applies: day first, then month. */
function decide(counts: UsageCounts, ceilings: Ceilings): 'day' | 'month' | null {
  if (!below(counts.today, ceilings.perDay)) return 'day';
  if (!below(counts.thisMonth, ceilings.perMonth)) return 'month';
  return null;
}

interface Waiting {
  ceilings: Ceilings;
  day: string;
  month: string;
  resolve(result: ConsumeResult): void;
  reject(error: unknown): void;
}

/** Batches of one account counted at the same time (each holds a pooled connection while it waits for the rows). */
const BATCHES_IN_FLIGHT = 3;

/**
 * Postgres without Redis. One transaction per request would queue every request of a tenant on its counter rows;
 * instead, the requests of an account that arrive in the same turn of the event loop are counted together
 * (`countBatch`): its day and month rows locked, as many admitted as fit under both ceilings, the first ones in
 * line, and both raised by that many. The row locks keep it exact across batches and instances. The rows are held
 * until the count is committed, not until it is on disk, so a few batches of an account follow each other closely
 * while each waits for its flush; a batch's answers leave only once its counts are on disk.
 */
export function createSqlUsageCounter(db: Kysely<Database>): UsageCounter {
  // Counting nothing reads the counts as they are on disk: no answer reports a count a crash could take back.
  const peek = async (accountId: string, now: Date): Promise<UsageCounts> => {
    const counted = await countBatch(db, accountId, { day: dayBucket(now), month: monthBucket(now) }, 0, { perDay: UNLIMITED, perMonth: UNLIMITED });
    return { today: counted?.today ?? 0, thisMonth: counted?.thisMonth ?? 0 };
  };
  const waiting = new Map<string, Waiting[]>();
  const inFlight = new Map<string, number>();
  const scheduled = new Set<string>();

  async function count(accountId: string, batch: Waiting[]) {
    const { ceilings, day, month } = batch[0];
    const counted = await countBatch(db, accountId, { day, month }, batch.length, ceilings);
    if (counted) return counted;
    await ensureBuckets(db, accountId, [day, month]);
    const again = await countBatch(db, accountId, { day, month }, batch.length, ceilings);
    if (!again) throw new Error(`usage counters of ${accountId} could not be created`);
    return again;
  }

  function answer(batch: Waiting[], { today, thisMonth, admitted }: { today: number; thisMonth: number; admitted: number }): void {
    const { ceilings } = batch[0];
    const dayAdmitted = ceilings.perDay === UNLIMITED ? batch.length : Math.min(batch.length, Math.max(0, ceilings.perDay - today));
    batch.forEach((request, index) => {
      if (index < admitted) {
        request.resolve({ allowed: true, today: today + index + 1, thisMonth: thisMonth + index + 1 });
      } else {
        request.resolve({ allowed: false, refusedBy: index < dayAdmitted ? 'month' : 'day', today: today + admitted, thisMonth: thisMonth + admitted });
      }
    });
  }

  function drain(accountId: string): void {
    const queue = waiting.get(accountId);
    const running = inFlight.get(accountId) ?? 0;
    if (!queue?.length || running >= BATCHES_IN_FLIGHT) return;
    // One batch shares its ceilings and buckets; a request of the next day or with other ceilings waits a turn.
    const first = queue[0];
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const one of queue) {
      const same = one.day === first.day && one.month === first.month && one.ceilings.perDay === first.ceilings.perDay && one.ceilings.perMonth === first.ceilings.perMonth;
      (same ? batch : rest).push(one);
    }
    if (rest.length) waiting.set(accountId, rest);
    else waiting.delete(accountId);
    inFlight.set(accountId, running + 1);
    const counted = count(accountId, batch).finally(() => {
      const left = (inFlight.get(accountId) ?? 1) - 1;
      if (left) inFlight.set(accountId, left);
      else inFlight.delete(accountId);
      drain(accountId);
    });
    counted.then((result) => answer(batch, result)).catch((error) => batch.forEach((request) => request.reject(error)));
  }

  // Requests that arrive in one turn of the event loop go in one batch.
  function schedule(accountId: string): void {
    if (scheduled.has(accountId)) return;
    scheduled.add(accountId);
    setImmediate(() => {
      scheduled.delete(accountId);
      drain(accountId);
    });
  }

  return {
    consume(accountId, ceilings, now) {
      return new Promise<ConsumeResult>((resolve, reject) => {
        const queue = waiting.get(accountId) ?? [];
        queue.push({ ceilings, day: dayBucket(now), month: monthBucket(now), resolve, reject });
        waiting.set(accountId, queue);
        schedule(accountId);
      });
    },
    peek,
    flush: async () => {},
    close: async () => {},
  };
}

/** Periodically writes counters that changed to SQL, so a restart resumes from where the service stood. */
function writeBehind(db: Kysely<Database>, read: (keys: { accountId: string; bucket: string }[]) => Promise<number[]>, intervalMs: number) {
  const dirty = new Map<string, { accountId: string; bucket: string }>();
  const mark = (key: { accountId: string; bucket: string }) => dirty.set(`${key.accountId}\u0000${key.bucket}`, key);
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    // A failed flush must not stop the later ones: each starts after the previous one, however it ended.
    flushing = flushing.catch(() => {}).then(async () => {
      if (dirty.size === 0) return;
      const keys = [...dirty.values()];
      dirty.clear();
      try {
        const counts = await read(keys);
        await persistAtLeast(
          db,
          keys.map((key, index) => ({ account_id: key.accountId, bucket: key.bucket, count: counts[index] })),
        );
      } catch (error) {
        // Storage or Redis unavailable: the counters stay marked and are written at the next flush.
        keys.forEach(mark);
        throw error;
      }
    });
    return flushing;
  };
  const timer = setInterval(() => {
    flush().catch(() => {});
  }, intervalMs);
  timer.unref();
  return {
    /** `key` is the pair as the dirty set spells it, for a caller that has it already joined. */
    mark(accountId: string, bucket: string, key = `${accountId}\u0000${bucket}`) {
      if (!dirty.has(key)) dirty.set(key, { accountId, bucket });
    },
    flush,
    stop() {
      clearInterval(timer);
      return flush();
    },
  };
}

export function createMemoryUsageCounter(db: Kysely<Database>, flushIntervalMs = 1000): UsageCounter {
  const counts = new Map<string, number>();
  const loading = new Map<string, Promise<void>>();
  const keyOf = (accountId: string, bucket: string) => `${accountId}\u0000${bucket}`;
  const behind = writeBehind(db, async (keys) => keys.map((k) => counts.get(keyOf(k.accountId, k.bucket)) ?? 0), flushIntervalMs);

  const ensureLoaded = async (accountId: string, buckets: string[]) => {
    const missing = buckets.filter((bucket) => !counts.has(keyOf(accountId, bucket)));
    if (missing.length === 0) return;
    const loadKey = keyOf(accountId, missing.join('|'));
    let pending = loading.get(loadKey);
    if (!pending) {
      pending = readBuckets(db, accountId, missing)
        .then((values) => {
          for (const bucket of missing) {
            const key = keyOf(accountId, bucket);
            if (!counts.has(key)) counts.set(key, values.get(bucket) ?? 0);
          }
        })
        // A failed read is not kept: the next request reads again.
        .finally(() => loading.delete(loadKey));
      loading.set(loadKey, pending);
    }
    await pending;
  };

  // The counters' keys of an account's day and month, joined once per account and day instead of on every request.
  const keysByAccount = new Map<string, { day: string; month: string; dayKey: string; monthKey: string }>();
  const keysOf = (accountId: string, day: string, month: string) => {
    let keys = keysByAccount.get(accountId);
    if (keys?.day !== day || keys.month !== month) {
      keys = { day, month, dayKey: keyOf(accountId, day), monthKey: keyOf(accountId, month) };
      keysByAccount.set(accountId, keys);
    }
    return keys;
  };

  const countsAt = ({ dayKey, monthKey }: { dayKey: string; monthKey: string }): UsageCounts => ({
    today: counts.get(dayKey) ?? 0,
    thisMonth: counts.get(monthKey) ?? 0,
  });

  const forgetOldBuckets = (now: Date) => {
    const live = new Set([dayBucket(now), monthBucket(now)]);
    for (const key of counts.keys()) if (!live.has(key.split('\u0000')[1])) counts.delete(key);
  };
  let lastDay = dayBucket(new Date());

  return {
    async consume(accountId, ceilings, now) {
      const day = dayBucket(now);
      const month = monthBucket(now);
      if (day !== lastDay) {
        await behind.flush();
        forgetOldBuckets(now);
        keysByAccount.clear();
        lastDay = day;
      }
      const keys = keysOf(accountId, day, month);
      const { dayKey, monthKey } = keys;
      if (!counts.has(dayKey) || !counts.has(monthKey)) await ensureLoaded(accountId, [day, month]);
      // From here to the return nothing awaits: check and increment are one step for this process.
      const before = countsAt(keys);
      const refusedBy = decide(before, ceilings);
      if (refusedBy) return { allowed: false, refusedBy, ...before };
      counts.set(dayKey, before.today + 1);
      counts.set(monthKey, before.thisMonth + 1);
      behind.mark(accountId, day, dayKey);
      behind.mark(accountId, month, monthKey);
      return { allowed: true, today: before.today + 1, thisMonth: before.thisMonth + 1 };
    },
    async peek(accountId, now) {
      const day = dayBucket(now);
      const month = monthBucket(now);
      await ensureLoaded(accountId, [day, month]);
      return countsAt(keysOf(accountId, day, month));
    },
    flush: () => behind.flush(),
    close: () => behind.stop(),
  };
}

// The day and month step of both scripts below, over dayKey, monthKey, dayCap and monthCap. Returns {verdict, day,
// month}: verdict 2 admitted, 0 refused by the day, 1 refused by the month, -1 not seeded.
const CONSUME_LUA = `
local d = redis.call('GET', dayKey)
local m = redis.call('GET', monthKey)
if (not d) or (not m) then return {-1, 0, 0} end
d = tonumber(d)
m = tonumber(m)
if dayCap >= 0 and d >= dayCap then return {0, d, m} end
if monthCap >= 0 and m >= monthCap then return {1, d, m} end
return {2, redis.call('INCR', dayKey), redis.call('INCR', monthKey)}
`;

const CONSUME_SCRIPT = `
local dayKey, monthKey, dayCap, monthCap = KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2])
${CONSUME_LUA}`;

// KEYS: flood window, day, month; ARGV: the window's expiry (ms), flood limit, day cap, month cap. Counts the request
// in the flood window first, as the gate does; past the limit it returns {3, 0, 0, count} and consumes nothing,
// else CONSUME_LUA's answer with the window's count as a fourth element.
const ADMIT_SCRIPT = `${FLOOD_HIT_LUA}
if count > tonumber(ARGV[2]) then return {3, 0, 0, count} end
local dayKey, monthKey, dayCap, monthCap = KEYS[2], KEYS[3], tonumber(ARGV[3]), tonumber(ARGV[4])
local function consume()
${CONSUME_LUA}
end
local answer = consume()
answer[4] = count
return answer
`;

const DAY_TTL_SECONDS = 3 * 24 * 3600;
const MONTH_TTL_SECONDS = 40 * 24 * 3600;

type RedisWithConsume = Redis & {
  kyxConsume(dayKey: string, monthKey: string, dayCap: number, monthCap: number): Promise<[number, number, number]>;
  kyxAdmit(floodKey: string, dayKey: string, monthKey: string, floodTtlMs: number, floodLimit: number, dayCap: number, monthCap: number): Promise<[number, number, number, number]>;
};

export function createRedisUsageCounter(db: Kysely<Database>, redis: Redis, prefix: string, flushIntervalMs = 1000): UsageCounter {
  if (!('kyxConsume' in redis)) redis.defineCommand('kyxConsume', { numberOfKeys: 2, lua: CONSUME_SCRIPT });
  if (!('kyxAdmit' in redis)) redis.defineCommand('kyxAdmit', { numberOfKeys: 3, lua: ADMIT_SCRIPT });
  const client = redis as RedisWithConsume;
  const redisKey = (accountId: string, bucket: string) => `${prefix}usage:${accountId}:${bucket}`;
  const behind = writeBehind(
    db,
    async (keys) => {
      const values = await client.mget(...keys.map((k) => redisKey(k.accountId, k.bucket)));
      return values.map((v) => Number(v ?? 0));
    },
    flushIntervalMs,
  );

  /** Redis keeps nothing on disk: after a restart the counters start again from what SQL holds. */
  const seed = async (accountId: string, now: Date) => {
    const day = dayBucket(now);
    const month = monthBucket(now);
    const stored = await readBuckets(db, accountId, [day, month]);
    await client
      .multi()
      .set(redisKey(accountId, day), stored.get(day) ?? 0, 'EX', DAY_TTL_SECONDS, 'NX')
      .set(redisKey(accountId, month), stored.get(month) ?? 0, 'EX', MONTH_TTL_SECONDS, 'NX')
      .exec();
  };

  const run = (accountId: string, day: string, month: string, ceilings: Ceilings) =>
    client.kyxConsume(redisKey(accountId, day), redisKey(accountId, month), ceilings.perDay, ceilings.perMonth);

  /** The result of a script's day and month step; counters Redis does not hold yet are seeded and counted again. */
  const settle = async (accountId: string, ceilings: Ceilings, now: Date, day: string, month: string, counted: [number, number, number]): Promise<ConsumeResult> => {
    let [verdict, today, thisMonth] = counted;
    if (verdict === -1) {
      await seed(accountId, now);
      [verdict, today, thisMonth] = await run(accountId, day, month, ceilings);
      if (verdict === -1) throw new Error('usage counters could not be seeded in Redis');
    }
    if (verdict === 2) {
      behind.mark(accountId, day);
      behind.mark(accountId, month);
      return { allowed: true, today, thisMonth };
    }
    return { allowed: false, refusedBy: verdict === 0 ? 'day' : 'month', today, thisMonth };
  };

  return {
    async consume(accountId, ceilings, now) {
      const day = dayBucket(now);
      const month = monthBucket(now);
      return settle(accountId, ceilings, now, day, month, await run(accountId, day, month, ceilings));
    },
    async consumeAfterFlood(flood, accountId, ceilings, now) {
      const day = dayBucket(now);
      const month = monthBucket(now);
      const [verdict, today, thisMonth, count] = await client.kyxAdmit(
        flood.key,
        redisKey(accountId, day),
        redisKey(accountId, month),
        flood.ttlMs,
        flood.limit,
        ceilings.perDay,
        ceilings.perMonth,
      );
      if (verdict === 3) return { flood: count };
      return { flood: count, usage: await settle(accountId, ceilings, now, day, month, [verdict, today, thisMonth]) };
    },
    async peek(accountId, now) {
      const [d, m] = await client.mget(redisKey(accountId, dayBucket(now)), redisKey(accountId, monthBucket(now)));
      if (d === null || m === null) {
        const stored = await readBuckets(db, accountId, [dayBucket(now), monthBucket(now)]);
        return { today: Number(d ?? stored.get(dayBucket(now)) ?? 0), thisMonth: Number(m ?? stored.get(monthBucket(now)) ?? 0) };
      }
      return { today: Number(d), thisMonth: Number(m) };
    },
    flush: () => behind.flush(),
    close: () => behind.stop(),
  };
}
