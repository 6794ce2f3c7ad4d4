// KYB verify latency against local servers that speak the four registers' formats (Companies House, GLEIF, VIES,
// FCA), screening with a no-op screen function so the figures are the engine's own.
// Baseline: one raw undici GET of a company profile from the same local server — the floor a single register
// round trip costs; verify makes six such calls (profile, officers, PSC, LEI, VAT, FCA), four of them in parallel.
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { verifyBusiness } from '../src/kyb/verify.ts';
import type { KybRequest, ScreenFunction } from '../src/kyb/types.ts';
import { ACME_LEI, acmeState, liveSourcesAt, startFakeRegisters } from '../test/kyb/fake-registers.ts';
import { percentile } from './_stats.ts';

const REQUEST: KybRequest = {
  companyName: 'Acme Ltd',
  country: 'GB',
  registrationNumber: '01234567',
  vatNumber: 'XI123456789',
  lei: ACME_LEI,
  regulatorId: '123456',
  owners: [{ name: 'Jane Owner', ownershipPercent: 40 }],
};
const clear: ScreenFunction = async () => ({ status: 'clear', matches: [] });

function stats(samples: number[]) {
  return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), max: percentile(samples, 100) };
}

async function timed(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

export async function run(): Promise<void> {
  const state = acmeState();
  const server = await startFakeRegisters(state);
  try {
    const sources = liveSourcesAt(server.baseUrl, { timeoutMs: 2000, maxAttempts: 2 });
    const rawGet = async () => {
      const answer = await request(`${server.baseUrl}/company/01234567`);
      await answer.body.json();
    };
    await timed(50, rawGet);
    await timed(20, () => verifyBusiness(REQUEST, { sources, screen: clear, budgetMs: 5000 }));

    const baseline = stats(await timed(500, rawGet));
    const allAnswer = stats(await timed(300, () => verifyBusiness(REQUEST, { sources, screen: clear, budgetMs: 5000 })));
    const statuses = new Set<string>();
    await timed(5, async () => statuses.add((await verifyBusiness(REQUEST, { sources, screen: clear, budgetMs: 5000 })).status));

    const budgetMs = 1000;
    state.slow.fca = 10_000;
    const slowSources = liveSourcesAt(server.baseUrl, { timeoutMs: 400, maxAttempts: 3 });
    const outcomes = new Set<string>();
    const oneDown = stats(
      await timed(8, async () => {
        const result = await verifyBusiness(REQUEST, { sources: slowSources, screen: clear, budgetMs });
        outcomes.add(`${result.status}/${result.checks.find((c) => c.name === 'regulator')?.result}`);
      }),
    );

    console.log('KYB verify (4 local registers, no-op screening)');
    console.log(`  baseline: raw undici GET /company/{n}      p50 ${fmt(baseline.p50)}  p95 ${fmt(baseline.p95)}  (n=${baseline.n})`);
    console.log(`  verify, all registers answering           p50 ${fmt(allAnswer.p50)}  p95 ${fmt(allAnswer.p95)}  (n=${allAnswer.n}, status ${[...statuses].join(',')})`);
    console.log(`  ratio verify/baseline (p50)               ${(allAnswer.p50 / baseline.p50).toFixed(1)}x`);
    console.log(`  verify, FCA never answers, budget ${budgetMs} ms  p50 ${fmt(oneDown.p50)}  max ${fmt(oneDown.max)}  (n=${oneDown.n}, outcome ${[...outcomes].join(',')})`);
    console.log(`  within budget: ${oneDown.max <= budgetMs ? 'yes' : 'NO'} (max/budget ${(oneDown.max / budgetMs).toFixed(2)})`);
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
