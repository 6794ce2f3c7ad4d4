// A business_onboarding run (sandbox KYB, then every officer and owner screened and stored) from POST to its
// decision, against the baseline of the same checks made directly over HTTP in the same app: KYB verify, then one
// AML batch of the same parties. The difference is what the workflow adds: the run row, one leased job per step,
// the step records and links. Embedded SQLite, one process, the worker woken by the POST (no poll wait).
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kybSandboxScenarios } from '../src/kyb/sandbox.ts';
import { createTestApp } from '../test/helpers/app.ts';
import { percentile } from './_stats.ts';

const RUNS = 40;
const SHARED_LISTS = path.resolve(import.meta.dirname, '../../shared/data/lists/current');

export async function run(): Promise<void> {
  const listsDir = await mkdtemp(path.join(os.tmpdir(), 'kyx-bench-wf-'));
  await copyFile(path.join(SHARED_LISTS, 'us_dpl.txt'), path.join(listsDir, 'us_dpl.txt'));
  const t = await createTestApp({ env: { KYX_LISTS_DIR: listsDir, KYX_WORKER_POLL_MS: '1000' } });
  try {
    await t.context.services.aml.ready();
    const tenant = await t.tenant({ env: 'test', plan: 'enterprise' });
    const request = kybSandboxScenarios.find((s) => s.id === 'active_company')!.request;
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: tenant.headers, payload });

    const direct = async () => {
      const kyb = (await post('/api/v1/kyb/verify', request!)).json();
      const queries = kyb.parties.filter((p: { role: string }) => p.role !== 'company').map((p: { name: string; type: string }) => ({ name: p.name, type: p.type }));
      const screened = await post('/api/v1/aml/screen/batch', { queries });
      if (screened.statusCode !== 200) throw new Error(screened.body);
    };
    const workflow = async () => {
      const { runId } = (await post('/api/v1/workflows/business_onboarding/runs', { input: request! })).json();
      for (;;) {
        const found = await t.context.services.workflows.findRun(tenant.accountId, runId);
        if (found?.status !== 'running') {
          if (found?.status !== 'completed') throw new Error(`run ${runId} ended ${found?.status}`);
          return;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const time = async (task: () => Promise<void>) => {
      const samples: number[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const start = performance.now();
        await task();
        samples.push(performance.now() - start);
      }
      return { median: percentile(samples, 50), p95: percentile(samples, 95) };
    };
    await direct();
    await workflow();
    const baseline = await time(direct);
    const measured = await time(workflow);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(`load average now ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`);
    console.log(`baseline: KYB verify + AML batch of its parties over HTTP: median ${fmt(baseline.median)} (p95 ${fmt(baseline.p95)})`);
    console.log(`business_onboarding run, POST to decision: median ${fmt(measured.median)} (p95 ${fmt(measured.p95)})`);
    console.log(`ratio: ${(measured.median / baseline.median).toFixed(2)}× the direct calls (${RUNS} runs each)`);
  } finally {
    await t.close();
    await rm(listsDir, { recursive: true, force: true });
  }
}
