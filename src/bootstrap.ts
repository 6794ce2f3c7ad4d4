// The composition root: the only place that opens storage, builds the shared platform and wires the modules,
// each with exactly the services it declares in `requires`.
import { readFileSync } from 'node:fs';
import type { Migration } from 'kysely';
import type { Config } from './config.ts';
import type { AppContext, DomainModule, ModuleServices, Platform, ReadinessCheck, ServiceName } from './core.ts';
import { CHECK_KINDS, MODULES } from './domains.ts';
import { type Dialect, type Storage, openStorage } from './storage/database.ts';
import { type MigrationReport, migrateToLatest } from './storage/migrate.ts';
import { createCheckStore } from './storage/checks.ts';
import { createEventLog } from './events/log.ts';
import { openKeyring } from './accounts/signing-keys.ts';
import { createCredentials } from './accounts/credentials.ts';
import { createMeters } from './accounts/meters.ts';
import { createMemoryUsageCounter, createRedisUsageCounter, createSqlUsageCounter } from './accounts/usage.ts';
import { createMemoryFloodLimiter, createRedisFloodLimiter } from './http/flood.ts';
import { StallTolerantRedis } from './redis-client.ts';
import { createMetricsRegistry } from './http/metrics.ts';
import { registerJobMetrics } from './storage/jobs.ts';

export const SERVICE_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

// Modules are typed by their own service and requirements; here they are handled alike.
type AnyModule = DomainModule<unknown, ServiceName>;

/** Every module's migrations; their names sort in the order they must run. */
export function allMigrations(dialect: Dialect): Record<string, Migration> {
  return Object.assign({}, ...MODULES.map((module) => module.migrations?.(dialect) ?? {}));
}

/** Opens storage and applies every module's migrations; enough for the CLI's data commands. */
export async function openMigratedStorage(config: Config): Promise<Storage> {
  const storage = await openStorage(config);
  try {
    await migrateToLatest(storage, allMigrations(storage.dialect));
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/** `kyx migrate`: applies every pending migration. */
export async function migrate(config: Config): Promise<MigrationReport & { dialect: Dialect }> {
  const storage = await openStorage(config);
  try {
    return { dialect: storage.dialect, ...(await migrateToLatest(storage, allMigrations(storage.dialect))) };
  } finally {
    await storage.close();
  }
}

/** The modules in an order where each comes after every module it requires; a missing or circular requirement throws. */
export function setupOrder(modules: readonly AnyModule[]): AnyModule[] {
  const byName = new Map(modules.map((module) => [module.name, module]));
  const ordered: AnyModule[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (module: AnyModule, path: string[]) => {
    if (state.get(module.name) === 'done') return;
    if (state.get(module.name) === 'visiting') throw new Error(`modules require each other: ${[...path, module.name].join(' → ')}`);
    state.set(module.name, 'visiting');
    for (const name of module.requires ?? []) {
      const required = byName.get(name);
      if (!required?.setup) throw new Error(`module ${module.name} requires ${name}, which no module provides`);
      visit(required, [...path, module.name]);
    }
    state.set(module.name, 'done');
    ordered.push(module);
  };
  for (const module of modules) visit(module, []);
  return ordered;
}

export async function createContext(config: Config): Promise<AppContext> {
  const storage = await openMigratedStorage(config);
  // Bounded waits: with Redis gone a request fails closed (503) within seconds instead of queueing. A metered request
  // whose key this instance knows sends one script (flood window, then day and month counters), any other /api request
  // the flood window's script and, once its credential is checked, the counters' one; auto-pipelining sends the
  // commands of the requests in one turn of the event loop in one write, instead of a write (and a read) per command.
  const redis = config.redisUrl
    ? new StallTolerantRedis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false, replyTimeoutMs: 2000, enableAutoPipelining: true })
    : undefined;
  // ioredis reconnects by itself; /readyz reports the outage, requests answer 503 meanwhile.
  redis?.on('error', () => {});
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
  const meters = createMeters(storage.db);
  const events = createEventLog();
  const readiness: ReadinessCheck[] = [{ name: 'storage', check: () => storage.ping() }];
  const metrics = createMetricsRegistry({ processMetrics: Boolean(config.metricsToken) });
  registerJobMetrics(storage.db, metrics);
  if (redis) readiness.push({ name: 'redis', check: async () => void (await redis.ping()) });
  const platform: Platform = {
    config,
    storage,
    redis,
    keyring,
    credentials,
    usage,
    meters,
    flood,
    checks: createCheckStore({ db: storage.db, dialect: storage.dialect, meters, events, metrics, baseUrl: config.baseUrl, kinds: CHECK_KINDS }),
    events,
    readiness,
    metrics,
    closers: [],
  };
  const context: AppContext = { ...platform, services: {} as ModuleServices };
  const services = context.services as unknown as Record<string, unknown>;
  try {
    for (const module of setupOrder(MODULES)) {
      if (!module.setup) continue;
      const requires = Object.fromEntries((module.requires ?? []).map((name) => [name, services[name]])) as Pick<ModuleServices, ServiceName>;
      // The context shares the platform's closers and readiness lists, so what a module registers reaches it.
      services[module.name] = await module.setup(platform, requires);
    }
  } catch (error) {
    await closeContext(context);
    throw error;
  }
  return context;
}

export async function closeContext(context: AppContext): Promise<void> {
  for (const close of [...context.closers].reverse()) await close();
  await context.usage.close();
  if (context.redis) await context.redis.quit();
  await context.storage.close();
}
