// Tenants never see each other, checked from the route table: every route that names a resource is called by
// another tenant with the owner's real ids (404, never data, nothing changed), and every list the other tenant
// reads leaves the owner's ids out. A new route without a fixture id fails this test until it gets one.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';

const scenario = (id: string) => kybSandboxScenarios.find((one) => one.id === id)!.request;

let t: TestApp;
let listsDir: string;
let owner: Tenant;
let stranger: Tenant;
const ids: Record<string, string> = {};

const call = (tenant: Tenant, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: tenant.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function created(tenant: Tenant, method: string, url: string, payload: unknown, field: string): Promise<string> {
  const response = await call(tenant, method, url, payload);
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  return response.json()[field];
}

beforeAll(async () => {
  listsDir = await mkdtemp(path.join(tmpdir(), 'kyx-matrix-lists-'));
  await copyFile(path.resolve(import.meta.dirname, '../aml/fixtures/eu_fsf.xml'), path.join(listsDir, 'eu_fsf.xml'));
  t = await createTestApp({ env: { KYX_LISTS_DIR: listsDir, KYX_WORKER_POLL_MS: '50', KYX_WEBHOOK_RETRY_BASE_MS: '3600000' } });
  await t.context.services.aml.ready();
  // test keys: a sandbox webhook may point at this machine, where nothing answers
  owner = await t.tenant({ env: 'test' });
  stranger = await t.tenant({ env: 'test' });

  ids.webhookId = await created(owner, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/kyx', events: ['check.completed'] }, 'webhookId');
  ids.kybId = await created(owner, 'POST', '/api/v1/kyb/verify', scenario('registry_down'), 'kybId');
  ids.kyaId = await created(owner, 'POST', '/api/v1/kya/verify', { agent: { name: 'Agent' } }, 'verificationId');
  ids.certificateId = (await call(owner, 'GET', `/api/v1/kya/verifications/${ids.kyaId}`)).json().certificate.id;
  ids.screeningId = (await call(owner, 'POST', '/api/v1/aml/screen', { name: 'Matrix Person', monitor: true })).json().screeningId;
  ids.subjectId = (await call(owner, 'GET', '/api/v1/aml/monitoring/subjects')).json().data[0].subjectId;
  ids.bundleId = await created(owner, 'POST', '/api/v1/reports/rpt-016', { checkId: ids.kybId, regulatorRef: 'MATRIX-1' }, 'bundleId');
  ids.workflowName = await created(owner, 'POST', '/api/v1/workflows', {
    name: 'owner_only',
    definition: { steps: [{ id: 'screen', kind: 'aml', input: { name: '$input.name', type: 'person' } }], decision: { rules: [], otherwise: 'approved' } },
  }, 'name');
  ids.runId = await created(owner, 'POST', '/api/v1/workflows/owner_only/runs', { input: { name: 'Matrix Person' } }, 'runId');
  ids.escrowId = (await t.context.services.escrow.open(owner.accountId, { amount: 100, currency: 'USD', buyer: 'B', seller: 'S' })).escrowId;
  // a KYC check as the store keeps it (the engine's own tests cover how one is made)
  ids.kycId = t.context.checks.newId('kyc');
  await t.context.checks.transaction((trx) =>
    t.context.checks.insert(trx, 'kyc', {
      id: ids.kycId,
      accountId: owner.accountId,
      environment: 'sandbox',
      createdAt: new Date().toISOString(),
      record: { result: { checkId: ids.kycId, status: 'review' } },
      columns: { status: 'review', document_hash: 'x' },
      billable: false,
    }),
  );
  for (;;) {
    const deliveries = (await call(owner, 'GET', `/api/v1/webhooks/${ids.webhookId}/deliveries`)).json().data;
    if (deliveries.length) {
      ids.deliveryId = deliveries[0].deliveryId;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(async () => {
  await t.close();
  await rm(listsDir, { recursive: true, force: true });
});

/** The owner's id for a parameter of a route, by route and parameter name. */
function ownerValue(route: string, param: string): string | undefined {
  if (param === 'id' && route.includes('/aml/screenings/')) return ids.screeningId;
  if (param === 'id' && route.includes('/kya/verifications/')) return ids.kyaId;
  if (param === 'id' && route.includes('/kya/certificate/')) return ids.certificateId;
  if (param === 'id' && route.startsWith('/reports/')) return ids.kybId;
  if (param === 'code') return 'RPT-002';
  if (param === 'checkId' && route.includes('/kyc/')) return ids.kycId;
  if (param === 'checkId') return ids.kybId;
  if (param === 'name') return ids.workflowName;
  return { kybId: ids.kybId, escrowId: ids.escrowId, bundleId: ids.bundleId, runId: ids.runId, webhookId: ids.webhookId, deliveryId: ids.deliveryId, subjectId: ids.subjectId }[param];
}

const BODIES: Record<string, unknown> = {
  'POST /api/v1/checks/:checkId/decision': { decision: 'approved', reason: 'not mine to decide' },
  'POST /api/v1/workflows/:name/runs': { input: { name: 'Someone' } },
};

describe('tenant matrix', () => {
  it("every route naming a resource answers another tenant's id with 404 and no data, and changes nothing", async () => {
    const routes = t.app.routeTable.filter((route) => route.includes('/:'));
    expect(routes.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const route of routes) {
      const [method, pattern] = route.split(' ');
      const url = pattern.replace(/:([A-Za-z]+)/g, (_, param: string) => ownerValue(pattern, param) ?? `<no fixture for ${param}>`);
      if (url.includes('<no fixture')) {
        failures.push(`${route}: ${url}`);
        continue;
      }
      const answer = await call(stranger, method, url, method === 'POST' ? (BODIES[route] ?? {}) : undefined);
      const leaked = Object.values(ids).filter((id) => answer.body.includes(id) && !url.includes(id));
      if (answer.statusCode !== 404 || leaked.length) failures.push(`${route} → ${answer.statusCode} ${answer.body.slice(0, 120)} leaked ${leaked.join(',')}`);
    }
    expect(failures).toEqual([]);

    // the owner's resources are as they were
    expect((await call(owner, 'GET', `/api/v1/aml/monitoring/subjects/${ids.subjectId}`)).json().status).toBe('active');
    expect((await call(owner, 'GET', `/api/v1/webhooks/${ids.webhookId}`)).statusCode).toBe(200);
    expect((await call(owner, 'GET', `/api/v1/kyb/checks/${ids.kybId}`)).json().review).toBeUndefined();
    expect((await call(owner, 'GET', `/api/v1/escrow/${ids.escrowId}`)).statusCode).toBe(200);
  });

  it("every list another tenant reads leaves the owner's ids out", async () => {
    const lists = t.app.routeTable.filter((route) => route.startsWith('GET /api/') && !route.includes('/:'));
    expect(lists.length).toBeGreaterThan(5);
    for (const route of lists) {
      const answer = await call(stranger, 'GET', route.split(' ')[1]);
      expect({ route, status: answer.statusCode < 500 }).toEqual({ route, status: true });
      expect({ route, leaked: Object.values(ids).filter((id) => answer.body.includes(id)) }).toEqual({ route, leaked: [] });
    }
    // and the owner's own lists do hold them, so the check above could fail
    const ownRuns = (await call(owner, 'GET', '/api/v1/workflows/runs')).body;
    expect(ownRuns).toContain(ids.runId);
  });
});
