// The one configuration: every environment variable kyx reads, in one section per concern, read once at start.
// A bad value throws ConfigError naming the variable (the CLI exits 2); `kyx config` prints what was read.
import path from 'node:path';
import { type AmlConfig, amlConfig } from './aml/config.ts';
import { type EffectiveVariable, type EnvReader, createEnvReader } from './env.ts';
import { type KyaConfig, kyaConfig } from './kya/config.ts';
import { type KybConfig, kybConfig } from './kyb/config.ts';
import { type KycConfig, kycConfig } from './kyc/config.ts';
import { type ReportsConfig, reportsConfig } from './reports/config.ts';
import { type WorkflowsConfig, workflowsConfig } from './workflows/config.ts';
import { type WebhooksConfig, webhooksConfig } from './webhooks/config.ts';

export { ConfigError } from './env.ts';

/** A schema name kyx puts into SQL itself (CREATE SCHEMA, search_path), so nothing else is accepted. */
export const POSTGRES_SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/** What the service reads from its environment, parsed once. */
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
  /** The bearer token GET /metrics asks for; without one the route answers 404. */
  metricsToken?: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  tokenTtlSeconds: number;
  keyCacheTtlMs: number;
  logLevel: string;
  aml: AmlConfig;
  kyc: KycConfig;
  kyb: KybConfig;
  kya: KyaConfig;
  reports: ReportsConfig;
  workflows: WorkflowsConfig;
  webhooks: WebhooksConfig;
}

type Env = Record<string, string | undefined>;
type CoreConfig = Omit<Config, 'aml' | 'kyc' | 'kyb' | 'kya' | 'reports' | 'workflows' | 'webhooks'>;

function coreConfig(env: EnvReader): CoreConfig {
  const port = env.integer('PORT', { description: 'HTTP port (0: any free port)', fallback: 3000, min: 0, max: 65535 });
  return {
    port,
    host: env.string('HOST', { description: 'listen address', fallback: '0.0.0.0' }),
    baseUrl: env.string('KYX_BASE_URL', { description: 'public address, used in reportUrl and as the JWT issuer', fallback: `http://localhost:${port}` }).replace(/\/+$/, ''),
    dataDir: path.resolve(env.string('KYX_DATA_DIR', { description: 'SQLite database, list snapshots, bundle archives', fallback: './data' })),
    databaseUrl: env.string('DATABASE_URL', { description: 'postgres://…: shared state for any number of instances', sensitivity: 'url' }),
    databaseSchema: env.string('KYX_DATABASE_SCHEMA', { description: 'Postgres schema to use', pattern: { test: POSTGRES_SCHEMA_NAME, expected: 'lower-case letters, digits and _, not starting with a digit' } }),
    redisUrl: env.string('REDIS_URL', { description: 'redis://…: flood limiter and hot counters shared by every instance', sensitivity: 'url' }),
    redisPrefix: env.string('KYX_REDIS_PREFIX', { description: "namespace of kyx's Redis keys", fallback: 'kyx:' }),
    floodLimit: env.integer('KYX_FLOOD_LIMIT', { description: 'requests per client IP per window on /api/*', fallback: 600 }),
    floodWindowSeconds: env.integer('KYX_FLOOD_WINDOW_SECONDS', { description: 'flood limiter window', fallback: 60 }),
    trustProxy: env.flag('KYX_TRUST_PROXY', { description: 'believe X-Forwarded-For for the client IP', fallback: false }),
    bodyLimitBytes: env.integer('KYX_BODY_LIMIT_BYTES', { description: 'request body limit (413 above)', fallback: 30 * 1024 * 1024 }),
    tokenTtlSeconds: env.integer('KYX_TOKEN_TTL_SECONDS', { description: 'lifetime of access tokens from POST /auth/token', fallback: 900 }),
    keyCacheTtlMs: env.integer('KYX_KEY_CACHE_MS', { description: 'how long a verified key is trusted without asking storage', fallback: 4000, min: 0 }),
    logLevel: env.string('KYX_LOG_LEVEL', { description: 'pino level', fallback: 'info' }),
    metricsToken: env.string('KYX_METRICS_TOKEN', { description: 'GET /metrics answers only Authorization: Bearer <this>; unset: /metrics is off', sensitivity: 'secret' }),
  };
}

/** The configuration and every variable it read, redacted for printing. */
export function readConfig(env: Env = process.env): { config: Config; effective: EffectiveVariable[] } {
  const reader = createEnvReader(env);
  const core = coreConfig(reader);
  const section = <T>(name: string, read: (env: EnvReader) => T): T => {
    reader.section(name);
    return read(reader);
  };
  const config: Config = {
    ...core,
    aml: section('aml', amlConfig),
    kyc: section('kyc', kycConfig),
    kyb: section('kyb', kybConfig),
    kya: section('kya', kyaConfig),
    reports: section('reports', reportsConfig),
    workflows: section('workflows', workflowsConfig),
    webhooks: section('webhooks', webhooksConfig),
  };
  return { config, effective: reader.effective() };
}

export function loadConfig(env: Env = process.env): Config {
  return readConfig(env).config;
}
