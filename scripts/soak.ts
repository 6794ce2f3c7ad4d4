// npm run soak [-- --duration 120 --fuzz-runs 10000 --seed 1 --keep]: three `kyx serve` processes on a fresh
// PostgreSQL database and a fresh Redis namespace, behind a round-robin proxy on loopback, under a mixed workload
// with bounded concurrency, while instances are killed with SIGKILL at random moments and restarted. Then it checks
// what a load-balanced deployment promises and exits 1 on any violation. Everything stops by itself.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { seededRandom } from '../src/kya/training/dataset.ts';
import { kyxJson } from '../test/helpers/cli.ts';
import { fuzzOperations, fuzzRequests, fuzzViolation } from '../test/helpers/fuzz.ts';
import { freePort } from '../test/helpers/net.ts';
import { type Cluster, createCluster, startProxy } from './soak/cluster.ts';
import { Ledger } from './soak/ledger.ts';
import { driveWorkload } from './soak/workload.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '120' },
    'fuzz-runs': { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '6' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'without-redis': { type: 'boolean', default: false },
  },
});
const DURATION_S = Number(args.duration);
const FUZZ_RUNS = Number(args['fuzz-runs']);
const CONCURRENCY = Number(args.concurrency);
const SEED = Number(args.seed ?? Math.floor(Math.random() * 2 ** 31));
if (!(DURATION_S > 0) || !(FUZZ_RUNS >= 0) || !(CONCURRENCY > 0)) {
  console.error('usage: npm run soak -- [--duration SECONDS] [--fuzz-runs N] [--concurrency N] [--seed N] [--without-redis] [--keep]');
  process.exit(2);
}
const WITH_REDIS = !args['without-redis'];
const INSTANCES = 3;
const REVOCATION_LIMIT_MS = 5000;
const DRAIN_TIMEOUT_MS = 90_000;
const SERVER_URL = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LISTS_DIR = process.env.KYX_LISTS_DIR ?? path.resolve(import.meta.dirname, '../../shared/data/lists/current');

// The kill schedule and the workload's choices follow the seed.
const random = seededRandom(SEED);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const database = `kyx_soak_${randomBytes(5).toString('hex')}`;
const databaseUrl = new URL(SERVER_URL);
databaseUrl.pathname = `/${database}`;
const redisPrefix = `kyx:soak:${randomBytes(5).toString('hex')}:`;
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-soak-'));
const metricsToken = randomBytes(16).toString('hex');

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Delivery {
  checkId?: string;
  valid: boolean;
}

async function main(): Promise<number> {
  const started = Date.now();
  console.log(`soak: seed ${SEED}, database ${database}, ${WITH_REDIS ? `Redis prefix ${redisPrefix}` : 'no Redis'}, logs in ${logDir}`);
  await admin(`CREATE DATABASE ${database}`);
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    // an empty value counts as unset, also over a REDIS_URL in the environment the soak was started with
    ...(WITH_REDIS ? { REDIS_URL, KYX_REDIS_PREFIX: redisPrefix } : { REDIS_URL: '' }),
    KYX_LISTS_DIR: LISTS_DIR,
    KYX_DATA_DIR: logDir,
    KYX_LOG_LEVEL: 'warn',
    KYX_METRICS_TOKEN: metricsToken,
    KYX_FLOOD_LIMIT: '100000000',
    KYX_WORKER_POLL_MS: '200',
    KYX_JOB_LEASE_MS: '5000',
    // A workflow step held by a killed instance is taken over when its lease runs out: the default two minutes
    // would outlast the drain (DRAIN_TIMEOUT_MS), and the run would be reported stuck though nothing is lost.
    KYX_WORKFLOW_STEP_LEASE_MS: '30000',
    KYX_WEBHOOK_RETRY_BASE_MS: '500',
    KYX_GLEIF_ENABLED: 'off',
    KYX_VIES_ENABLED: 'off',
  };

  // The webhook receiver checks each delivery's Standard Webhooks signature.
  let secret = '';
  const deliveries: Delivery[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      try {
        const payload = new Webhook(secret).verify(body, request.headers as Record<string, string>) as { data?: { checkId?: string } };
        deliveries.push({ checkId: payload.data?.checkId, valid: true });
      } catch {
        deliveries.push({ valid: false });
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  await kyxJson(['migrate', '--json'], env);
  const account = async (name: string, extra: string[] = []) => (await kyxJson(['accounts', 'create', '--name', name, '--plan', 'scale', ...extra, '--json'], env)).accountId as string;
  const key = async (accountId: string, environment: 'test' | 'live') => (await kyxJson(['keys', 'create', '--account', accountId, '--env', environment, '--json'], env)).key as string;
  const mainAccount = await account('Soak main');
  const liveAccount = await account('Soak live');
  const cappedAccount = await account('Soak capped', ['--daily-cap', '150', '--monthly-quota', '120']);
  const fuzzAccount = await account('Soak fuzz');
  const keys = { test: await key(mainAccount, 'test'), live: await key(liveAccount, 'live'), capped: await key(cappedAccount, 'test') };
  const fuzzKey = await key(fuzzAccount, 'test');

  const ports = await Promise.all(Array.from({ length: INSTANCES }, freePort));
  const cluster = createCluster({ ports, env, logDir });
  const proxy = await startProxy(cluster);
  env.KYX_BASE_URL = proxy.url;
  const ledger = new Ledger(proxy.url, proxy.cutIds);
  ledger.registerKey(keys.test, mainAccount);
  ledger.registerKey(keys.live, liveAccount);
  ledger.registerKey(keys.capped, cappedAccount);
  ledger.registerKey(fuzzKey, fuzzAccount);

  const redis = new Redis(REDIS_URL);
  const figures: Record<string, string | number> = {};
  try {
    await Promise.all(cluster.instances.map((instance) => cluster.start(instance)));
    while (cluster.instances.some((instance) => !instance.healthy)) await sleep(100);

    const endpoint = await ledger.call('POST', '/api/v1/webhooks', keys.test, { url: hookUrl, events: ['check.completed'] });
    if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);
    secret = endpoint.json().secret.slice('whsec_'.length);

    const until = Date.now() + DURATION_S * 1000;
    let kills = 0;
    const killer = (async () => {
      const meanGapMs = Math.max(5000, (DURATION_S * 1000) / 8);
      while (Date.now() < until) {
        await sleep(meanGapMs * (0.5 + random()));
        if (Date.now() >= until) break;
        const instance = cluster.instances[Math.floor(random() * INSTANCES)];
        await cluster.kill(instance);
        kills++;
        await sleep(random() * 2000);
        await cluster.start(instance);
      }
    })();

    const revocationTimes: number[] = [];
    const revocations = (async () => {
      const gapMs = Math.max(4000, (DURATION_S * 1000) / 4);
      while (Date.now() + gapMs < until || revocationTimes.length === 0) {
        revocationTimes.push(await revokeEverywhere(cluster, ledger, mainAccount, env));
        await sleep(gapMs * random());
      }
    })();

    let fuzzCases = 0;
    const fuzzing = (async () => {
      if (FUZZ_RUNS === 0) return;
      const document = await (await fetch(`${proxy.url}/openapi.json`)).json();
      await fc.assert(
        fc.asyncProperty(fuzzRequests(fuzzOperations(document)), async (request) => {
          fuzzCases++;
          const answer = await ledger.call(request.method, request.url, fuzzKey, undefined, request.payload);
          if (answer.cut) return;
          const violation = fuzzViolation(request, answer.status, answer.text);
          if (violation) ledger.violation(`fuzz: ${violation}`);
        }),
        { numRuns: FUZZ_RUNS, seed: SEED, endOnFailure: true },
      );
    })();

    await driveWorkload(ledger, keys, { concurrency: CONCURRENCY, until, random });
    await Promise.all([killer, revocations, fuzzing]);
    const loadSeconds = (Date.now() - started) / 1000;

    while (cluster.instances.some((instance) => !instance.healthy)) await sleep(100);
    await drain(ledger, deliveries);
    for (const record of ledger.records) {
      const answer = await ledger.call('GET', record.path, record.key);
      if (answer.status !== 200 || !answer.text.includes(record.id)) ledger.violation(`lost: ${record.kind} ${record.id} answered ${answer.status}`);
    }
    const lost = ledger.violations.filter((violation) => violation.startsWith('lost:')).length;
    const metrics = await Promise.all(cluster.instances.map((instance) => scrape(instance.port)));
    const unexpectedExits = cluster.instances.flatMap((instance) => instance.unexpectedExits);
    await cluster.stopAll();
    unexpectedExits.forEach((exit) => ledger.violation(exit));
    proxy.faults.forEach((fault) => ledger.violation(`proxy: ${fault}`));

    // Stored state, read once every instance has stopped (and written its counters behind).
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    let drift = 0;
    try {
      const stuckJobs = await client.query(`SELECT id, kind, status, locked_until FROM jobs WHERE status IN ('queued', 'running')`);
      stuckJobs.rows.forEach((job) => ledger.violation(`job ${job.id} (${job.kind}) still ${job.status} after the drain, lease until ${job.locked_until}`));
      const generating = await client.query(`SELECT id FROM bundles WHERE status = 'generating'`);
      generating.rows.forEach((bundle) => ledger.violation(`bundle ${bundle.id} still generating after the drain`));
      const counters = await client.query(`SELECT account_id, bucket, count FROM usage_counters`);
      for (const accountId of [mainAccount, liveAccount, cappedAccount, fuzzAccount]) {
        const rows = counters.rows.filter((row) => row.account_id === accountId);
        const stored = {
          day: Number(rows.find((row) => row.bucket.startsWith('day:'))?.count ?? 0),
          month: Number(rows.find((row) => row.bucket.startsWith('month:'))?.count ?? 0),
        };
        drift += ledger.counterDrift(accountId, stored);
        for (const row of WITH_REDIS ? rows.filter((one) => /^(day|month):/.test(one.bucket)) : []) {
          const inRedis = Number((await redis.get(`${redisPrefix}usage:${accountId}:${row.bucket}`)) ?? -1);
          if (inRedis !== Number(row.count)) {
            drift += Math.abs(inRedis - Number(row.count));
            ledger.violation(`account ${accountId} ${row.bucket}: ${row.count} stored, ${inRedis} in Redis`);
          }
        }
      }
      const capped = counters.rows.find((row) => row.account_id === cappedAccount && row.bucket.startsWith('month:'));
      if (Number(capped?.count ?? 0) > 120) ledger.violation(`capped account counted ${capped?.count} past its quota of 120`);
    } finally {
      await client.end();
    }

    const fiveXX = [...ledger.byStatus].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
    Object.assign(figures, {
      instances: INSTANCES,
      'duration (s)': Math.round(loadSeconds),
      requests: ledger.requests,
      kills,
      'cut by kills': ledger.cut,
      '5xx (all cut by kills)': `${fiveXX}`,
      'records read back': ledger.records.length,
      lost,
      'counter drift': drift,
      'revoked key last accepted after (max ms)': Math.max(...revocationTimes),
      revocations: revocationTimes.length,
      'fuzz cases': fuzzCases,
      'webhook deliveries (valid)': deliveries.filter((delivery) => delivery.valid).length,
      'requests served by instances (/metrics)': metrics.reduce((sum, count) => sum + count, 0),
      'status counts': JSON.stringify(Object.fromEntries([...ledger.byStatus].sort(([a], [b]) => a - b))),
    });
    revocationTimes.filter((ms) => ms > REVOCATION_LIMIT_MS).forEach((ms) => ledger.violation(`a revoked key was accepted ${ms} ms after its revocation`));
  } finally {
    await cluster.stopAll();
    await proxy.close();
    receiver.closeAllConnections();
    receiver.close();
    if (!args.keep) {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
        if (found.length) await redis.del(...found);
        cursor = next;
      } while (cursor !== '0');
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
    await redis.quit();
  }

  console.log('\nsoak figures');
  for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(46)} ${value}`);
  if (ledger.violations.length) {
    console.log(`\n${ledger.violations.length} violation(s):`);
    ledger.violations.forEach((violation) => console.log(`  - ${violation}`));
    console.log(`instance logs: ${logDir}`);
    return 1;
  }
  if (!args.keep) fs.rmSync(logDir, { recursive: true, force: true });
  console.log('\nsoak passed');
  return 0;
}

/**
 * Creates a key with the CLI, uses it on every instance (so each trusts it from its cache), revokes it with the
 * CLI and returns how long after the revocation any instance still accepted it; each must refuse it in the end
 * (one killed meanwhile, once it is back).
 */
async function revokeEverywhere(cluster: Cluster, ledger: Ledger, accountId: string, env: Record<string, string>): Promise<number> {
  const { keyId, key } = await kyxJson(['keys', 'create', '--account', accountId, '--env', 'test', '--json'], env);
  ledger.registerKey(key, accountId);
  // Straight to each instance, past the proxy; accounted like any request (an admitted one counts).
  const direct = async (port: number) => {
    ledger.requests++;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/validate-key`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      ledger.account('GET', '/api/v1/validate-key', key, { status: response.status, headers: response.headers, text, cut: false });
      return response.status;
    } catch (error) {
      // A killed instance: refused connections never reached it; a dropped one may have been admitted first.
      if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNREFUSED') {
        ledger.account('GET', '/api/v1/validate-key', key, { status: 0, headers: new Headers(), text: '', cut: true });
      }
      return 0;
    }
  };
  await Promise.all(cluster.instances.map((instance) => direct(instance.port)));
  // Each instance is asked every 50 ms from before the revocation until it refuses the key; only the answers after
  // the CLI has returned (the revocation committed) count against the limit.
  let revokedAt = Number.POSITIVE_INFINITY;
  const acceptedUntil = Promise.all(
    cluster.instances.map(async (instance) => {
      const started = Date.now();
      let lastAccepted = 0;
      for (;;) {
        const status = await direct(instance.port);
        if (status === 401) return Math.max(0, lastAccepted - revokedAt);
        if (status === 200) lastAccepted = Date.now();
        else if (status !== 0) ledger.violation(`revoked key answered ${status} on instance ${instance.index}`);
        if (Date.now() - started > 90_000) {
          ledger.violation(`instance ${instance.index} never refused a revoked key`);
          return Math.max(0, lastAccepted - revokedAt);
        }
        await sleep(50);
      }
    }),
  );
  await kyxJson(['keys', 'revoke', keyId, '--json'], env);
  revokedAt = Date.now();
  return Math.max(...(await acceptedUntil));
}

/** Waits, bounded, until every bundle and workflow run has finished and every stored check's webhook arrived. */
async function drain(ledger: Ledger, deliveries: Delivery[]): Promise<void> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  const pending = ledger.records.filter((record) => record.kind === 'bundle' || record.kind === 'run');
  const expectedHooks = new Set(ledger.records.filter((record) => ['aml', 'kyb', 'kyc'].includes(record.kind)).map((record) => record.id));
  while (Date.now() < deadline) {
    for (const record of [...pending]) {
      const answer = await ledger.call('GET', record.path, record.key);
      const status = answer.status === 200 ? answer.json().status : undefined;
      if (status && status !== 'generating' && status !== 'running') pending.splice(pending.indexOf(record), 1);
    }
    const delivered = new Set(deliveries.map((delivery) => delivery.checkId));
    const undelivered = [...expectedHooks].filter((id) => !delivered.has(id));
    if (!pending.length && !undelivered.length) return;
    if (Date.now() + 1000 >= deadline) {
      pending.forEach((record) => ledger.violation(`${record.kind} ${record.id} still generating/running ${DRAIN_TIMEOUT_MS / 1000} s after the load`));
      undelivered.forEach((id) => ledger.violation(`webhook for ${id} never delivered`));
      return;
    }
    await sleep(1000);
  }
}

/** The requests an instance counted since it started, from its /metrics. */
async function scrape(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('kyx_http_requests_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

process.exitCode = await main();
