import path from 'node:path';

/** Everything the service reads from its environment, parsed once. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl?: string;
  /** Postgres schema to use (tests isolate themselves with one schema per app). */
  databaseSchema?: string;
  redisUrl?: string;
  redisPrefix: string;
  floodLimit: number;
  floodWindowSeconds: number;
  trustProxy: boolean;
  bodyLimitBytes: number;
  tokenTtlSeconds: number;
  keyCacheTtlMs: number;
  logLevel: string;
  listsDir?: string;
  keepImages: boolean;
  imageKey?: string;
  keepPrompts: boolean;
  /** Whether this instance runs the job worker (evidence bundles). */
  runWorker: boolean;
  workerPollMs: number;
  /** How long a claimed job stays leased; a worker that dies mid-job is replaced after this. */
  jobLeaseMs: number;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  return raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on';
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    baseUrl: (env.KYX_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.KYX_DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.KYX_DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.KYX_REDIS_PREFIX ?? 'kyx:',
    floodLimit: integer(env, 'KYX_FLOOD_LIMIT', 600),
    floodWindowSeconds: integer(env, 'KYX_FLOOD_WINDOW_SECONDS', 60),
    trustProxy: flag(env, 'KYX_TRUST_PROXY'),
    bodyLimitBytes: integer(env, 'KYX_BODY_LIMIT_BYTES', 30 * 1024 * 1024),
    tokenTtlSeconds: integer(env, 'KYX_TOKEN_TTL_SECONDS', 900),
    keyCacheTtlMs: integer(env, 'KYX_KEY_CACHE_MS', 4000, 0),
    logLevel: env.KYX_LOG_LEVEL ?? 'info',
    listsDir: env.KYX_LISTS_DIR || undefined,
    keepImages: flag(env, 'KYX_KEEP_IMAGES'),
    imageKey: env.KYX_IMAGE_KEY || undefined,
    keepPrompts: flag(env, 'KYX_KEEP_PROMPTS'),
    runWorker: (env.KYX_WORKER ?? 'on').toLowerCase() !== 'off',
    workerPollMs: integer(env, 'KYX_WORKER_POLL_MS', 500),
    jobLeaseMs: integer(env, 'KYX_JOB_LEASE_MS', 30_000),
  };
}
