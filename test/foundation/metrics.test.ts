// GET /metrics: Prometheus text behind its own token, off without one; requests, checks, jobs, lists and webhook
// backlog, with route patterns (never ids) as labels.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { createMetricsRegistry, requestMetrics } from '../../src/http/metrics.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';

const TOKEN = 'metrics-token-for-tests';
let t: TestApp;
let tenant: Tenant;
let listsDir: string;

beforeAll(async () => {
  listsDir = await mkdtemp(path.join(tmpdir(), 'kyx-metrics-lists-'));
  await copyFile(path.resolve(import.meta.dirname, '../aml/fixtures/eu_fsf.xml'), path.join(listsDir, 'eu_fsf.xml'));
  t = await createTestApp({ env: { KYX_METRICS_TOKEN: TOKEN, KYX_LISTS_DIR: listsDir, KYX_WORKER: 'false', KYX_WEBHOOK_RETRY_BASE_MS: '3600000' } });
  await t.context.services.aml.ready();
  tenant = await t.tenant();
});
afterAll(async () => {
  await t.close();
  await rm(listsDir, { recursive: true, force: true });
});

/** The value of one sample, by metric name and exact label set as Prometheus prints it. */
function sample(text: string, metric: string, labels: string): number | undefined {
  const line = text.split('\n').find((one) => one.startsWith(`${metric}{${labels}} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

const scrape = async () => {
  const answer = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toContain('text/plain');
  return answer.body;
};

describe('/metrics', () => {
  it('counts requests by route pattern and status, checks by kind and outcome, and reads queue, lists and webhook backlog', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers });
    await t.app.inject({ method: 'GET', url: '/api/v1/validate-key' });
    const kyb = await t.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', headers: tenant.headers, payload: kybSandboxScenarios.find((one) => one.id === 'registry_down')!.request });
    const kybId = kyb.json().kybId as string;
    await t.app.inject({ method: 'GET', url: `/api/v1/kyb/checks/${kybId}`, headers: tenant.headers });
    // with the worker off, the bundle's job waits in the queue
    await t.app.inject({ method: 'POST', url: '/api/v1/reports/rpt-016', headers: tenant.headers, payload: { checkId: kybId, regulatorRef: 'M-1' } });

    const text = await scrape();
    expect(sample(text, 'kyx_http_requests_total', 'method="GET",route="/api/v1/validate-key",status="200"')).toBe(3);
    expect(sample(text, 'kyx_http_requests_total', 'method="GET",route="/api/v1/validate-key",status="401"')).toBe(1);
    expect(sample(text, 'kyx_http_requests_total', 'method="GET",route="/api/v1/kyb/checks/:kybId",status="200"')).toBe(1);
    expect(sample(text, 'kyx_http_request_duration_seconds_count', 'method="GET",route="/api/v1/validate-key"')).toBe(4);
    expect(sample(text, 'kyx_checks_total', 'kind="kyb",status="review",environment="sandbox"')).toBe(1);
    expect(sample(text, 'kyx_jobs', 'kind="bundle.build",status="queued"')).toBe(1);
    expect(sample(text, 'kyx_job_oldest_age_seconds', 'kind="bundle.build"')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'kyx_aml_list_entities', 'list="eu_fsf"')).toBeGreaterThan(0);
    expect(sample(text, 'kyx_aml_list_refresh_failed', 'list="eu_fsf"')).toBe(0);
    expect(text).toContain('kyx_webhook_deliveries_pending 0');
    expect(text).toContain('kyx_process_resident_memory_bytes');
    expect(text).not.toContain(kybId);
  });

  it('builds the request histogram cumulatively, and empties it on a registry reset', async () => {
    const registry = createMetricsRegistry({ processMetrics: false });
    const count = requestMetrics(registry);
    count('GET', '/r', 200, 0.002);
    count('GET', '/r', 200, 0.3);
    count('GET', '/r', 500, 20);
    const text = await registry.metrics();
    expect(sample(text, 'kyx_http_requests_total', 'method="GET",route="/r",status="200"')).toBe(2);
    expect(sample(text, 'kyx_http_request_duration_seconds_bucket', 'le="0.001",method="GET",route="/r"')).toBe(0);
    expect(sample(text, 'kyx_http_request_duration_seconds_bucket', 'le="0.0025",method="GET",route="/r"')).toBe(1);
    expect(sample(text, 'kyx_http_request_duration_seconds_bucket', 'le="0.5",method="GET",route="/r"')).toBe(2);
    expect(sample(text, 'kyx_http_request_duration_seconds_bucket', 'le="+Inf",method="GET",route="/r"')).toBe(3);
    expect(sample(text, 'kyx_http_request_duration_seconds_sum', 'method="GET",route="/r"')).toBeCloseTo(20.302);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="/r"');
  });

  it('asks for its token, and is off without one', async () => {
    errorBody(await t.app.inject({ method: 'GET', url: '/metrics' }), 401, 'unauthorized');
    errorBody(await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'unauthorized');
    errorBody(await t.app.inject({ method: 'GET', url: '/metrics', headers: tenant.headers }), 401, 'unauthorized');
    const off = await createTestApp();
    try {
      errorBody(await off.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }), 404, 'not_found');
    } finally {
      await off.close();
    }
  });
});
