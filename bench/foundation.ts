// Authenticated GET /api/v1/validate-key through the whole gate (flood limiter, key lookup, permission, day and
// month counters), with the default request logging, against a bare Fastify route returning the same JSON (no
// logging), in the same process and run.
//
// The load generator (autocannon) runs in a worker thread of its own, as a client outside the servers would: the
// servers' event loop bears only their own work, so the ratio is what a caller sees (run on the servers' loop, the
// generator's cost per request was in both figures and lifted the ratio towards 1). The generator still shares the
// machine's cores with the servers.
//
// On a shared two-core machine the load of other work changes within seconds, so one long measurement of the
// baseline followed by one of each kyx server compares figures taken under different loads. Instead every server
// listens from the start, and in each round every kyx server is measured right beside a measurement of the bare
// route (in A-B order in even rounds, B-A in odd ones, so a load that rises or falls within a pair favours neither);
// a round's ratio is kyx over the bare route of its own pair, and the figure printed is the median of the rounds'
// ratios, with their range, so one disturbed round cannot move it.
// KYX_BENCH_ROUNDS (default 7) and KYX_BENCH_ROUND_SECONDS (default 2) change the schedule.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { logDestination } from '../src/log-destination.ts';
import { closeContext, createContext } from '../src/bootstrap.ts';
import { createAccount, createApiKey } from '../src/accounts/repository.ts';
import { SCOPES } from '../src/accounts/scopes.ts';
import { dropPostgresSchema } from '../src/storage/database.ts';
import { percentile } from './_stats.ts';
import { BARE_VALIDATE_KEY_BODY } from './_bare-route.ts';

const ROUNDS = Number(process.env.KYX_BENCH_ROUNDS ?? 7);
const ROUND_SECONDS = Number(process.env.KYX_BENCH_ROUND_SECONDS ?? 2);
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 32;

interface Target {
  label: string;
  url: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

interface Sample {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Requests answered per second over the whole run (not the mean of per-second samples, which a short run distorts). */
async function load(target: Target, seconds: number): Promise<Sample> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
    pipelining: 1,
    // The generator in a worker thread: the servers' event loop serves requests only.
    workers: 1,
  });
  return { rps: result.requests.total / result.duration, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
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

/** `info`: the default request logging, one line per request, through the service's own log destination, to /dev/null. */
async function kyxTarget(label: string, env: Record<string, string | undefined>, logging: 'off' | 'info' = 'info'): Promise<Target> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-bench-'));
  const schema = `kyx_bench_${randomBytes(4).toString('hex')}`;
  const config = {
    ...loadConfig({ KYX_DATA_DIR: dataDir, KYX_FLOOD_LIMIT: '100000000', KYX_LOG_LEVEL: 'warn', ...env }),
    databaseSchema: env.DATABASE_URL ? schema : undefined,
    redisPrefix: `kyx:bench:${randomBytes(4).toString('hex')}:`,
  };
  const context = await createContext(config);
  const app = await buildApp(context, { logger: logging === 'off' ? false : { level: 'info', stream: logDestination('/dev/null') } });
  const account = await createAccount(context.storage.db, { name: 'bench', planId: 'enterprise' });
  const { key } = await createApiKey(context.storage.db, { accountId: account.id, environment: 'live', scopes: [...SCOPES] });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    label,
    url: `${address}/api/v1/validate-key`,
    headers: { authorization: `Bearer ${key}` },
    async close() {
      await app.close();
      await closeContext(context);
      if (env.DATABASE_URL) await dropPostgresSchema(env.DATABASE_URL, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function bareTarget(): Promise<Target> {
  const bare = Fastify();
  bare.get('/api/v1/validate-key', async () => BARE_VALIDATE_KEY_BODY);
  const address = await bare.listen({ port: 0, host: '127.0.0.1' });
  return { label: 'bare Fastify route (baseline)', url: `${address}/api/v1/validate-key`, headers: {}, close: () => bare.close() };
}

const median = (values: number[]) => percentile(values, 50);
const range = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

export async function run(): Promise<void> {
  const bare = await bareTarget();
  const targets = [
    await kyxTarget('kyx validate-key, SQLite, no logging', { DATABASE_URL: undefined, REDIS_URL: undefined }, 'off'),
    await kyxTarget('kyx validate-key, SQLite', { DATABASE_URL: undefined, REDIS_URL: undefined }),
  ];
  const pg = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const scaled = (await reachable(pg)) && (await reachable(redis));
  if (scaled) {
    targets.push(await kyxTarget('kyx validate-key, Postgres + Redis', { DATABASE_URL: pg, REDIS_URL: redis }));
    targets.push(await kyxTarget('kyx validate-key, Postgres only', { DATABASE_URL: pg, REDIS_URL: undefined }));
  }
  const loadBefore = os.loadavg();
  try {
    // Not measured: JIT, caches, pools, the counters' first rows.
    for (const target of [bare, ...targets]) await load(target, WARM_UP_SECONDS);
    const bareSamples: Sample[] = [];
    const samples = new Map<Target, { sample: Sample; ratio: number }[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const kyxFirst = round % 2 === 1;
        const first = await load(kyxFirst ? target : bare, ROUND_SECONDS);
        const second = await load(kyxFirst ? bare : target, ROUND_SECONDS);
        const [kyx, baseline] = kyxFirst ? [first, second] : [second, first];
        bareSamples.push(baseline);
        samples.get(target)!.push({ sample: kyx, ratio: kyx.rps / baseline.rps });
      }
    }
    const bareRps = bareSamples.map((s) => s.rps);
    console.log(
      `${ROUNDS} rounds of ${ROUND_SECONDS} s per server beside the bare route, ${CONNECTIONS} connections, ` +
        'client in a worker thread; ' +
        'ratio = median over the rounds of kyx / bare route of the same round (range in brackets)',
    );
    console.log(
      `${bare.label.padEnd(38)} ${median(bareRps).toFixed(0).padStart(7)} req/s (${range(bareRps, 0)})  p99 ${String(median(bareSamples.map((s) => s.p99))).padStart(3)} ms`,
    );
    for (const target of targets) {
      const rounds = samples.get(target)!;
      const rps = rounds.map((r) => r.sample.rps);
      const ratios = rounds.map((r) => r.ratio);
      const non2xx = rounds.reduce((sum, r) => sum + r.sample.non2xx + r.sample.errors, 0);
      console.log(
        `${target.label.padEnd(38)} ${median(rps).toFixed(0).padStart(7)} req/s  p99 ${String(median(rounds.map((r) => r.sample.p99))).padStart(3)} ms  ` +
          `non-2xx/errors ${non2xx}  ratio vs bare ${median(ratios).toFixed(2)}x (${range(ratios, 2)})`,
      );
    }
    if (!scaled) console.log('Postgres/Redis not reachable: scaled mode not measured');
  } finally {
    for (const target of [bare, ...targets]) await target.close();
  }
  const loadAfter = os.loadavg();
  console.log(
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load (1 min) ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
  );
  console.log('targets, default logging: ≥0.5x bare on SQLite, ≥0.35x on Postgres + Redis, ≥0.2x on Postgres alone');
}
