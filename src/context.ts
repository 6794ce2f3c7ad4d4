import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { type Storage, openStorage } from './storage/database.ts';
import { migrateToLatest } from './storage/migrate.ts';
import { type Keyring, openKeyring } from './accounts/signing-keys.ts';
import { type Credentials, createCredentials } from './accounts/credentials.ts';
import {
  type Meters,
  type UsageCounter,
  createMemoryUsageCounter,
  createMeters,
  createRedisUsageCounter,
  createSqlUsageCounter,
} from './accounts/usage.ts';
import { type FloodLimiter, createMemoryFloodLimiter, createRedisFloodLimiter } from './http/flood.ts';
import type { CheckFinder, CheckKind, StoredCheck } from './modules.ts';
import { checkKindOf } from './modules.ts';
import { DOMAINS } from './domains.ts';

export const SERVICE_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export interface ReadinessCheck {
  name: string;
  /** Rejects when the dependency cannot serve. */
  check(): Promise<void>;
  /** Problems that do not stop serving (a list that failed to parse while its last good version serves). */
  warnings?(): string[];
}

/**
 * The services domains put on the context, declared by each domain through declaration merging
 * (`declare module '../context.ts' { interface DomainServices { aml: AmlService } }`).
 */
export interface DomainServices {}

/** Everything a running instance holds: storage, shared counters, credentials. Routes and the CLI get it passed in. */
export interface AppContext {
  config: Config;
  storage: Storage;
  redis?: Redis;
  keyring: Keyring;
  credentials: Credentials;
  usage: UsageCounter;
  meters: Meters;
  flood: FloodLimiter;
  readiness: ReadinessCheck[];
  services: DomainServices;
  /** How each check kind is found for a tenant (reports and bundles read checks of every kind through it). */
  checkFinders: Partial<Record<CheckKind, CheckFinder>>;
  /** Run at close, newest first (domains register their workers, timers and pools here). */
  closers: (() => Promise<void>)[];
}

/** Opens storage and applies migrations; enough for the CLI's data commands. */
export async function openMigratedStorage(config: Config): Promise<Storage> {
  const storage = await openStorage(config);
  try {
    await migrateToLatest(storage);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

export async function createContext(config: Config): Promise<AppContext> {
  const storage = await openMigratedStorage(config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) : undefined;
  const keyring = await openKeyring(storage.db, config.tokenTtlSeconds);
  const usage = redis
    ? createRedisUsageCounter(storage.db, redis, config.redisPrefix)
    : storage.dialect === 'postgres'
      ? createSqlUsageCounter(storage.db)
      : createMemoryUsageCounter(storage.db);
  const flood = redis
    ? createRedisFloodLimiter(redis, config.redisPrefix, config.floodLimit, config.floodWindowSeconds)
    : createMemoryFloodLimiter(config.floodLimit, config.floodWindowSeconds);
  const credentials = createCredentials({
    db: storage.db,
    keyring,
    issuer: config.baseUrl,
    tokenTtlSeconds: config.tokenTtlSeconds,
    cacheTtlMs: config.keyCacheTtlMs,
  });
  const readiness: ReadinessCheck[] = [{ name: 'storage', check: () => storage.ping() }];
  if (redis) readiness.push({ name: 'redis', check: async () => void (await redis.ping()) });
  const context: AppContext = {
    config,
    storage,
    redis,
    keyring,
    credentials,
    usage,
    meters: createMeters(storage.db),
    flood,
    readiness,
    services: {} as DomainServices,
    checkFinders: {},
    closers: [],
  };
  try {
    for (const domain of DOMAINS) await domain.setup?.(context);
  } catch (error) {
    await closeContext(context);
    throw error;
  }
  return context;
}

/** A check of any kind belonging to `accountId`, or undefined (also for another tenant's id). */
export async function findCheck(context: AppContext, accountId: string, id: string): Promise<StoredCheck | undefined> {
  const kind = checkKindOf(id);
  const finder = kind && context.checkFinders[kind];
  return finder ? finder(accountId, id) : undefined;
}

export async function closeContext(context: AppContext): Promise<void> {
  for (const close of [...context.closers].reverse()) await close();
  await context.usage.close();
  if (context.redis) await context.redis.quit();
  await context.storage.close();
}
