// Authenticated GET /api/v1/validate-key through the whole gate (flood limiter, key lookup, permission, day and
// month counters), with the default request logging, against a bare Fastify route returning the same JSON (no
// logging), in the same process and run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { closeContext, createContext } from '../src/bootstrap.ts';
import { createAccount, createApiKey } from '../src/accounts/repository.ts';
import { SCOPES } from '../src/accounts/scopes.ts';
import { dropPostgresSchema } from '../src/storage/database.ts';

const DURATION_SECONDS = 6;
const CONNECTIONS = 32;

const WARM_UP_SECONDS = 2;

/** Loads `url` for a warm-up that is not measured (JIT, caches, pools), then for the measurement. */
async function load(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARM_UP_SECONDS, pipelining: 1 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_SECONDS, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    socket.on('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** `info`: the default request logging, one line per request, buffered as in production, written to /dev/null. */
async function measureKyx(label: string, env: Record<string, string | undefined>, baselineRps: number, logging: 'off' | 'info' = 'info') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-bench-'));
  const schema = `kyx_bench_${randomBytes(4).toString('hex')}`;
  const config = {
    ...loadConfig({ KYX_DATA_DIR: dataDir, KYX_FLOOD_LIMIT: '100000000', KYX_LOG_LEVEL: 'warn', ...env }),
    databaseSchema: env.DATABASE_URL ? schema : undefined,
    redisPrefix: `kyx:bench:${randomBytes(4).toString('hex')}:`,
  };
  const context = await createContext(config);
  const app = await buildApp(context, { logger: logging === 'off' ? false : { level: 'info', stream: pino.destination({ dest: '/dev/null', sync: false }) } });
  const account = await createAccount(context.storage.db, { name: 'bench', planId: 'enterprise' });
  const { key } = await createApiKey(context.storage.db, { accountId: account.id, environment: 'live', scopes: [...SCOPES] });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const result = await load(`${address}/api/v1/validate-key`, { authorization: `Bearer ${key}` });
  await app.close();
  await closeContext(context);
  if (env.DATABASE_URL) await dropPostgresSchema(env.DATABASE_URL, schema);
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `${label.padEnd(34)} ${result.rps.toFixed(0).padStart(7)} req/s  p99 ${String(result.p99).padStart(3)} ms  ` +
      `non-2xx ${result.non2xx}  ratio vs bare ${(result.rps / baselineRps).toFixed(2)}x`,
  );
}

export async function run(): Promise<void> {
  const body = {
    valid: true,
    keyId: 'key_x',
    accountId: 'acct_x',
    environment: 'live',
    plan: { id: 'enterprise', name: 'Enterprise' },
    permissions: [...SCOPES],
    limits: { requestsPerMonth: -1, requestsPerDay: -1, advisoryPerMinute: 10000 },
    usage: { today: 1, thisMonth: 1, kycChecks: 0, kybChecks: 0, amlScreenings: 0, kyaChecks: 0 },
  };
  const bare = Fastify();
  bare.get('/api/v1/validate-key', async () => body);
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
  const baseline = await load(`${bareAddress}/api/v1/validate-key`);
  await bare.close();
  console.log(`${'bare Fastify route (baseline)'.padEnd(34)} ${baseline.rps.toFixed(0).padStart(7)} req/s  p99 ${String(baseline.p99).padStart(3)} ms`);

  await measureKyx('kyx validate-key, SQLite, no logging', { DATABASE_URL: undefined, REDIS_URL: undefined }, baseline.rps, 'off');
  await measureKyx('kyx validate-key, SQLite', { DATABASE_URL: undefined, REDIS_URL: undefined }, baseline.rps);
  const pg = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if ((await reachable(pg)) && (await reachable(redis))) {
    await measureKyx('kyx validate-key, Postgres + Redis', { DATABASE_URL: pg, REDIS_URL: redis }, baseline.rps);
    await measureKyx('kyx validate-key, Postgres only', { DATABASE_URL: pg, REDIS_URL: undefined }, baseline.rps);
  } else {
    console.log('Postgres/Redis not reachable: scaled mode not measured');
  }
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('targets, default logging: ≥0.5x bare on SQLite, ≥0.35x on Postgres + Redis, ≥0.2x on Postgres alone');
}
