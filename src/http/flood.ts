import type { Redis } from 'ioredis';
import { FLOOD_HIT_LUA } from '../storage/flood-window.ts';

/** Fixed-window counter of requests per client IP in front of /api. */
export interface FloodLimiter {
  /** Counts one request of `key` (a client IP) in the current window. */
  hit(key: string, now: number): Promise<FloodVerdict>;
  /** The verdict a request would get now, without counting one. */
  peek(key: string, now: number): Promise<FloodVerdict>;
  /**
   * Redis only: where a request of `key` is counted now, so that one script can count it together with the request's
   * day and month (one round trip instead of two); `verdict` reads the count that script returns.
   */
  window?(key: string, now: number): FloodWindow;
}

export interface FloodWindow {
  /** The Redis key of the window's counter. */
  key: string;
  /** Its expiry, set when the window's first request creates it. */
  ttlMs: number;
  limit: number;
  verdict(count: number): FloodVerdict;
}

export interface FloodVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window restarts (delta-seconds, as RateLimit-Reset wants). */
  resetSeconds: number;
}

function verdict(count: number, limit: number, windowEndsAt: number, now: number): FloodVerdict {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEndsAt - now) / 1000)),
  };
}

export function createMemoryFloodLimiter(limit: number, windowSeconds: number): FloodLimiter {
  const windowMs = windowSeconds * 1000;
  let windows = new Map<string, number>();
  let windowStart = 0;
  const current = (now: number) => {
    const start = now - (now % windowMs);
    if (start !== windowStart) {
      windows = new Map();
      windowStart = start;
    }
    return start;
  };
  return {
    async hit(key, now) {
      const start = current(now);
      const count = (windows.get(key) ?? 0) + 1;
      windows.set(key, count);
      return verdict(count, limit, start + windowMs, now);
    },
    async peek(key, now) {
      const start = current(now);
      return verdict((windows.get(key) ?? 0) + 1, limit, start + windowMs, now);
    },
  };
}

const HIT_SCRIPT = `${FLOOD_HIT_LUA}
return count
`;

type RedisWithHit = Redis & { kyxFloodHit(key: string, ttlMs: number): Promise<number> };

/** Same window for every instance: the counter lives in Redis, keyed by IP and window start. */
export function createRedisFloodLimiter(redis: Redis, prefix: string, limit: number, windowSeconds: number): FloodLimiter {
  if (!('kyxFloodHit' in redis)) redis.defineCommand('kyxFloodHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as RedisWithHit;
  const windowMs = windowSeconds * 1000;
  const keyOf = (key: string, start: number) => `${prefix}flood:${start}:${key}`;
  const window = (key: string, now: number): FloodWindow => {
    const start = now - (now % windowMs);
    return { key: keyOf(key, start), ttlMs: windowMs * 2, limit, verdict: (count) => verdict(count, limit, start + windowMs, now) };
  };
  return {
    window,
    async hit(key, now) {
      const counted = window(key, now);
      return counted.verdict(await client.kyxFloodHit(counted.key, counted.ttlMs));
    },
    async peek(key, now) {
      const start = now - (now % windowMs);
      const count = Number((await client.get(keyOf(key, start))) ?? 0) + 1;
      return verdict(count, limit, start + windowMs, now);
    },
  };
}
