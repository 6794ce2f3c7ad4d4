// POST /api/v1/checks/{checkId}/decision: one human decision on a check whose outcome awaits it, shown in the
// check, its report and its evidence bundle; never twice, never on another tenant's check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { pdfText } from '../helpers/pdf.ts';
import { unzipEntries } from '../helpers/zip.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';

const registryDown = kybSandboxScenarios.find((scenario) => scenario.id === 'registry_down')!.request;

let t: TestApp;
let owner: Tenant;
let other: Tenant;

beforeAll(async () => {
  t = await createTestApp({ env: { KYX_WORKER_POLL_MS: '50' } });
  owner = await t.tenant();
  other = await t.tenant();
});
afterAll(() => t.close());

async function kybInReview(tenant: Tenant = owner): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', headers: tenant.headers, payload: registryDown });
  expect(response.statusCode).toBe(200);
  expect(response.json().status).toBe('review');
  return response.json().kybId;
}

async function identityOnlyKya(tenant: Tenant = owner): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/kya/verify', headers: tenant.headers, payload: { agent: { id: 'agent-1', name: 'Agent', operator: 'Acme' } } });
  expect(response.statusCode).toBe(200);
  return response.json().verificationId;
}

const decide = (tenant: Tenant, checkId: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/v1/checks/${checkId}/decision`, headers: tenant.headers, payload: payload as object });

describe('deciding a check in review', () => {
  it('records the decision beside the automated outcome, in the check, its report and an event', async () => {
    const kybId = await kybInReview();
    const response = await decide(owner, kybId, { decision: 'approved', reason: 'Registry confirmed by phone on 24 Nov' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ checkId: kybId, kind: 'kyb', status: 'review', review: { decision: 'approved', reason: 'Registry confirmed by phone on 24 Nov', decidedBy: owner.keyId } });
    expect(Date.parse(body.review.decidedAt)).not.toBeNaN();

    const stored = (await t.app.inject({ method: 'GET', url: `/api/v1/kyb/checks/${kybId}`, headers: owner.headers })).json();
    expect(stored.status).toBe('review');
    expect(stored.review).toEqual(body.review);

    const pdf = await t.app.inject({ method: 'GET', url: `/reports/RPT-002/${kybId}.pdf`, headers: owner.headers });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Human review');
    expect(text).toContain('Registry confirmed by phone on 24 Nov');

    const events = await t.context.storage.db.selectFrom('events').selectAll().where('account_id', '=', owner.accountId).where('type', '=', 'check.review_decided').execute();
    // one event for this check (the file's other tests decide other checks of the same tenant)
    expect(events.map((event) => JSON.parse(event.data)).filter((data) => data.checkId === kybId)).toEqual([{ checkId: kybId, kind: 'kyb', status: 'review', review: body.review }]);
  });

  it('puts the decision into the evidence bundle registered afterwards', async () => {
    const kybId = await kybInReview();
    expect((await decide(owner, kybId, { decision: 'rejected', reason: 'Shell company indicators' })).statusCode).toBe(200);
    const registered = await t.app.inject({ method: 'POST', url: '/api/v1/reports/rpt-016', headers: owner.headers, payload: { checkId: kybId, regulatorRef: 'REG-1', includeTypes: ['RPT-002'] } });
    expect(registered.statusCode).toBe(202);
    const { bundleId } = registered.json();
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}`, headers: owner.headers })).json().status, { timeout: PATIENCE_MS, interval: 100 }).toBe('ready');
    const zip = await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}.zip`, headers: owner.headers });
    const entries = await unzipEntries(zip.rawPayload);
    const report = [...entries].find(([name]) => name.includes('RPT-002'));
    expect(report).toBeDefined();
    const text = await pdfText(report![1]);
    expect(text).toContain('rejected');
    expect(text).toContain('Shell company indicators');
  });

  it('takes exactly one of many concurrent decisions', async () => {
    const kybId = await kybInReview();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => decide(owner, kybId, { decision: i % 2 ? 'approved' : 'rejected', reason: `analyst ${i}` })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) errorBody(answer, 409, 'conflict');
    const winner = answers.find((answer) => answer.statusCode === 200)!.json().review;
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/kyb/checks/${kybId}`, headers: owner.headers })).json().review).toEqual(winner);
  });
});

describe('the review queue', () => {
  it('holds the tenant\'s undecided checks awaiting review, oldest first, and drops a decided one', async () => {
    const tenant = await t.tenant();
    const first = await kybInReview(tenant);
    await identityOnlyKya(tenant);
    const second = await kybInReview(tenant);
    await kybInReview(other);
    const reviews = t.context.services.reviews;
    expect((await reviews.queue(tenant.accountId, { limit: 10 })).data.map((check) => check.id)).toEqual([first, second]);
    const page = await reviews.queue(tenant.accountId, { limit: 1 });
    expect(page.data.map((check) => check.id)).toEqual([first]);
    expect((await reviews.queue(tenant.accountId, { limit: 1, cursor: page.nextCursor! })).data.map((check) => check.id)).toEqual([second]);
    await reviews.decide({ accountId: tenant.accountId, checkId: first, decision: 'approved', reason: 'ok', decidedBy: 'usr_test' });
    expect((await reviews.queue(tenant.accountId, { limit: 10 })).data.map((check) => check.id)).toEqual([second]);
  });
});

describe('refusals', () => {
  it('answers 409 for a check that does not await review and for a second decision', async () => {
    errorBody(await decide(owner, await identityOnlyKya(), { decision: 'approved', reason: 'fine' }), 409, 'conflict');
    const kybId = await kybInReview();
    expect((await decide(owner, kybId, { decision: 'approved', reason: 'fine' })).statusCode).toBe(200);
    errorBody(await decide(owner, kybId, { decision: 'rejected', reason: 'changed my mind' }), 409, 'conflict');
  });

  it("answers 404 for another tenant's check and for an unknown id, and leaves the check undecided", async () => {
    const kybId = await kybInReview();
    errorBody(await decide(other, kybId, { decision: 'approved', reason: 'not mine' }), 404, 'not_found');
    errorBody(await decide(owner, 'kyb_doesnotexist', { decision: 'approved', reason: 'x' }), 404, 'not_found');
    errorBody(await decide(owner, 'nonsense', { decision: 'approved', reason: 'x' }), 404, 'not_found');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/kyb/checks/${kybId}`, headers: owner.headers })).json().review).toBeUndefined();
  });

  it('needs the reviews:write scope', async () => {
    const kybId = await kybInReview();
    const reader = await t.tenant({ scopes: ['kyb:read'] });
    errorBody(await decide(reader, kybId, { decision: 'approved', reason: 'x' }), 403, 'forbidden');
  });

  it.each([
    [{ decision: 'maybe', reason: 'x' }, 'body/decision'],
    [{ decision: 'approved', reason: '' }, 'body/reason'],
    [{ decision: 'approved' }, 'body/reason'],
    [{ decision: 'approved', reason: 'x', extra: 1 }, 'body/extra'],
  ])('rejects %j naming %s', async (payload, path) => {
    const response = await decide(owner, 'kyb_x', payload);
    expect(errorBody(response, 400, 'invalid_request').errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
