// Domain routes through real HTTP (autocannon on loopback, same process): AML screens/s, KYA verify latency at
// three prompt sizes, and RPT-016 bundle time from registration to ready. Baseline in the same run and app:
// GET /api/v1/validate-key, the cheapest authenticated route (the whole gate, no domain work).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { closeContext, createContext } from '../src/bootstrap.ts';
import { createAccount, createApiKey } from '../src/accounts/repository.ts';
import { SCOPES } from '../src/accounts/scopes.ts';

const LISTS_DIR = process.env.KYX_LISTS_DIR ?? fileURLToPath(new URL('../../shared/data/lists/current', import.meta.url));
const SECONDS = 5;

async function load(url: string, init: { method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) {
  const result = await autocannon({ url, duration: SECONDS, connections: 8, method: init.method ?? 'GET', headers: init.headers, body: init.body });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

function row(label: string, r: { rps: number; p50: number; p99: number; non2xx: number }, baselineRps: number) {
  console.log(
    `${label.padEnd(38)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms  non-2xx ${r.non2xx}  ratio vs validate-key ${(r.rps / baselineRps).toFixed(2)}x`,
  );
}

function prompt(length: number): string {
  const sentence = 'Please summarise the attached quarterly report for the finance team and list the three largest cost items. ';
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-bench-http-'));
  const config = loadConfig({ KYX_DATA_DIR: dataDir, KYX_LISTS_DIR: LISTS_DIR, KYX_FLOOD_LIMIT: '100000000', KYX_LOG_LEVEL: 'warn', KYX_WORKER_POLL_MS: '20' });
  const context = await createContext({ ...config, databaseUrl: undefined, redisUrl: undefined });
  const app = await buildApp(context, { logger: false });
  const account = await createAccount(context.storage.db, { name: 'bench', planId: 'enterprise' });
  const { key } = await createApiKey(context.storage.db, { accountId: account.id, environment: 'live', scopes: [...SCOPES] });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    await context.services.aml.ready();
    const baseline = await load(`${base}/api/v1/validate-key`, { headers });
    row('GET validate-key (baseline)', baseline, baseline.rps);

    const screen = await load(`${base}/api/v1/aml/screen`, { method: 'POST', headers, body: JSON.stringify({ name: 'Abdul Rahman Yasn', type: 'person' }) });
    row('POST aml/screen (all current lists)', screen, baseline.rps);

    for (const length of [100, 4000, 32000]) {
      const result = await load(`${base}/api/v1/kya/verify`, { method: 'POST', headers, body: JSON.stringify({ prompt: prompt(length) }) });
      row(`POST kya/verify, ${length} chars`, result, baseline.rps);
    }

    const check = await app.inject({ method: 'POST', url: '/api/v1/kya/verify', headers, payload: { agent: { name: 'bench' } } });
    const checkId = check.json().verificationId as string;
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const registered = await app.inject({ method: 'POST', url: '/api/v1/reports/rpt-016', headers, payload: { checkId, regulatorRef: `BENCH-${i}` } });
      const bundleId = registered.json().bundleId as string;
      for (;;) {
        const status = (await app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}`, headers })).json().status;
        if (status !== 'generating') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`RPT-016 registration → ready (${checkId.slice(0, 4)} check): median ${times[5].toFixed(0)} ms, max ${times[9].toFixed(0)} ms (target ≤ 300 ms)`);
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    await app.close();
    await closeContext(context);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
