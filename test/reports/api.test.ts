import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { zipSync, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, type TestApp, type Tenant, createTestApp, errorBody, warnSkipped } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { pdfText } from '../helpers/pdf.ts';
import { PATIENCE_MS } from '../helpers/wait.ts';
import { unzipEntries } from '../helpers/zip.ts';
import { claimJob } from '../../src/storage/jobs.ts';
import { BUNDLE_JOB } from '../../src/reports/repository.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A real stored check: a KYA identity-only verification (no prompt), which any key can make. */
async function kyaCheck(t: TestApp, tenant: Tenant, name = 'Агент Смит'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/kya/verify',
    headers: tenant.headers,
    payload: { agent: { id: 'agent-1', name, operator: 'Acme' } },
  });
  expect(response.statusCode).toBe(200);
  return response.json().verificationId;
}

async function register(t: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/reports/rpt-016', headers: tenant.headers, payload: body });
}

async function waitUntilSettled(t: TestApp, tenant: Tenant, bundleId: string) {
  await expect
    .poll(async () => (await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}`, headers: tenant.headers })).json().status, {
      timeout: PATIENCE_MS,
      interval: 100,
    })
    .not.toBe('generating');
  return (await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}`, headers: tenant.headers })).json();
}

describe('report PDFs', () => {
  let t: TestApp;
  let owner: Tenant;
  let other: Tenant;
  let checkId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_WORKER_POLL_MS: '50' } });
    owner = await t.tenant();
    other = await t.tenant();
    checkId = await kyaCheck(t, owner);
  });
  afterAll(() => t.close());

  it('serves the check report, tenant-scoped, byte-identical on every fetch, with ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf`, headers: owner.headers });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-disposition']).toContain(`RPT-KYA-${checkId}.pdf`);
    const text = await pdfText(first.rawPayload);
    expect(text).toContain(checkId);
    expect(text).toContain('Агент Смит');
    expect(text).toMatch(/sandbox/i);
    const second = await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf`, headers: owner.headers });
    expect(sha256(second.rawPayload)).toBe(sha256(first.rawPayload));
    expect(first.headers.etag).toBe(`"${sha256(first.rawPayload)}"`);
    const notModified = await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf`, headers: { ...owner.headers, 'if-none-match': String(first.headers.etag) } });
    expect(notModified.statusCode).toBe(304);
  });

  it("another tenant's check is 404, as is a report code that does not fit the check", async () => {
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf`, headers: other.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-001/${checkId}.pdf`, headers: owner.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: '/reports/RPT-KYA/kya_doesnotexist.pdf', headers: owner.headers }), 404, 'not_found');
  });

  it('a planned code is 501, anything else 404, and a credential is needed', async () => {
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-042/${checkId}.pdf`, headers: owner.headers }), 501, 'not_implemented');
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-X/${checkId}.pdf`, headers: owner.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}`, headers: owner.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf` }), 401, 'unauthorized');
    const narrow = await t.tenant({ scopes: ['kya:verify'] });
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-KYA/${checkId}.pdf`, headers: narrow.headers }), 403, 'forbidden');
  });
});

describe('RPT-016 evidence bundles', () => {
  let t: TestApp;
  let owner: Tenant;
  let other: Tenant;
  let checkId: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-bundles-'));

  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_WORKER_POLL_MS: '50' } });
    owner = await t.tenant();
    other = await t.tenant();
    checkId = await kyaCheck(t, owner);
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('registers (202 generating), becomes ready, and the archive is exactly what the specification lists', async () => {
    const response = await register(t, owner, { checkId, regulatorRef: 'FCA-2026-0042' });
    expect(response.statusCode).toBe(202);
    const registered = response.json();
    expect(registered).toMatchObject({ status: 'generating', checkId, regulatorRef: 'FCA-2026-0042', includeTypes: ['RPT-KYA'] });
    expect(registered.bundleId).toMatch(/^bnd_/);
    const settled = await waitUntilSettled(t, owner, registered.bundleId);
    expect(settled.status).toBe('ready');

    const zip = await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${registered.bundleId}.zip`, headers: owner.headers });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(sha256(zip.rawPayload)).toBe(settled.archive.sha256);
    const entries = await unzipEntries(zip.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['evidence.json', 'manifest.json', `reports/RPT-KYA-${checkId}.pdf`, 'report.pdf'].sort());
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest).toMatchObject({ signature: null, signatureAlgorithm: null, integrity: 'sha256_hashes_only' });
    expect(manifest.files.map((f: { name: string }) => f.name).sort()).toEqual(['evidence.json', `reports/RPT-KYA-${checkId}.pdf`, 'report.pdf'].sort());
    for (const file of manifest.files) {
      expect(entries.get(file.name)!.byteLength).toBe(file.bytes);
      expect(sha256(entries.get(file.name)!)).toBe(file.sha256);
    }
    const evidence = JSON.parse(entries.get('evidence.json')!.toString());
    expect(evidence.includeTypes).toEqual(['RPT-KYA']);
    expect(evidence.unavailableReports).toEqual([]);
    expect(JSON.stringify(evidence)).toContain(checkId);
    const cover = await pdfText(entries.get('report.pdf')!);
    expect(cover).toContain('FCA-2026-0042');
    expect(cover).toContain(checkId);

    const again = await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${registered.bundleId}.zip`, headers: owner.headers });
    expect(sha256(again.rawPayload)).toBe(sha256(zip.rawPayload));
    const coverPdf = await t.app.inject({ method: 'GET', url: `/reports/RPT-016/${registered.bundleId}.pdf`, headers: owner.headers });
    expect(sha256(coverPdf.rawPayload)).toBe(sha256(entries.get('report.pdf')!));

    // kyx bundle verify passes the archive and fails it after one byte changes, a file goes, or a file is added
    const good = path.join(dir, 'good.zip');
    fs.writeFileSync(good, zip.rawPayload);
    const passed = kyx(['bundle', 'verify', good], {});
    expect(passed.status).toBe(0);
    expect(passed.stdout).toMatch(/does not show who wrote the manifest/);
    const files = unzipSync(zip.rawPayload);
    const tampered = { ...files, 'evidence.json': Uint8Array.from(files['evidence.json']) };
    tampered['evidence.json'][10] ^= 1;
    const { [`reports/RPT-KYA-${checkId}.pdf`]: _removed, ...withoutReport } = files;
    for (const [name, variant] of [
      ['changed.zip', tampered],
      ['removed.zip', withoutReport],
      ['added.zip', { ...files, 'extra.txt': new TextEncoder().encode('x') }],
    ] as const) {
      fs.writeFileSync(path.join(dir, name), zipSync(variant));
      expect(kyx(['bundle', 'verify', path.join(dir, name)], {}).status).toBe(1);
    }
  });

  it('a type the check cannot have is listed in unavailableReports with a reason, never as a placeholder', async () => {
    const response = await register(t, owner, { checkId, includeTypes: ['RPT-KYA', 'RPT-001'], regulatorRef: 'REF-2' });
    expect(response.statusCode).toBe(202);
    const settled = await waitUntilSettled(t, owner, response.json().bundleId);
    const zip = await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${settled.bundleId}.zip`, headers: owner.headers });
    const entries = await unzipEntries(zip.rawPayload);
    const evidence = JSON.parse(entries.get('evidence.json')!.toString());
    expect(evidence.includeTypes).toEqual(['RPT-KYA']);
    expect(evidence.unavailableReports).toEqual([{ type: 'RPT-001', reason: expect.stringContaining(checkId) }]);
    expect([...entries.keys()].some((name) => name.includes('RPT-001'))).toBe(false);
  });

  it('registration errors: reasons per unsupported type, unknown or foreign check, bad regulatorRef', async () => {
    const unsupported = errorBody(await register(t, owner, { checkId, includeTypes: ['RPT-042', 'RPT-016', 'PDF'], regulatorRef: 'R' }), 400, 'UNSUPPORTED_REPORT_TYPES');
    expect(unsupported.reasons.map((r: { type: string }) => r.type)).toEqual(['RPT-042', 'RPT-016', 'PDF']);
    for (const reason of unsupported.reasons) expect(reason.reason.length).toBeGreaterThan(5);
    errorBody(await register(t, other, { checkId, regulatorRef: 'R' }), 404, 'not_found');
    errorBody(await register(t, owner, { checkId: 'chk_nothere', regulatorRef: 'R' }), 404, 'not_found');
    errorBody(await register(t, owner, { checkId: 'nonsense', regulatorRef: 'R' }), 404, 'not_found');
    const missing = errorBody(await register(t, owner, { checkId }), 400, 'invalid_request');
    expect(missing.errors.map((e: { path: string }) => e.path)).toContain('body/regulatorRef');
    errorBody(await register(t, owner, { checkId, regulatorRef: 'x'.repeat(129) }), 400, 'invalid_request');
    errorBody(await register(t, owner, { checkId, regulatorRef: 'REF\u0000-1' }), 400, 'invalid_request');
  });

  it("another tenant's bundle and archive are 404", async () => {
    const bundleId = (await register(t, owner, { checkId, regulatorRef: 'R-3' })).json().bundleId;
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}`, headers: other.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}.zip`, headers: other.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: `/reports/RPT-016/${bundleId}.pdf`, headers: other.headers }), 404, 'not_found');
  });
});

describe('durable generation', () => {
  it('a job whose worker died mid-job is taken over once its lease runs out, and the bundle finishes', async () => {
    const first = await createTestApp({ env: { KYX_WORKER: 'off' } });
    const owner = await first.tenant();
    const checkId = await kyaCheck(first, owner);
    const bundleId = (await register(first, owner, { checkId, regulatorRef: 'CRASH-1' })).json().bundleId;
    // a worker claims the job, then "dies" without finishing it
    const claimed = await claimJob(first.context.storage, [BUNDLE_JOB], 'dead-worker', 300, new Date());
    expect(claimed?.payload).toEqual({ bundleId });
    const generating = await first.app.inject({ method: 'GET', url: `/api/v1/bundles/${bundleId}.zip`, headers: owner.headers });
    expect(generating.statusCode).toBe(202);
    expect(generating.headers['retry-after']).toBe('1');

    const restarted = await createTestApp({ sharing: first, env: { KYX_WORKER_POLL_MS: '50' } });
    try {
      const settled = await waitUntilSettled(restarted, owner, bundleId);
      expect(settled.status).toBe('ready');
      const job = await restarted.context.storage.db.selectFrom('jobs').selectAll().where('id', '=', claimed!.id).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'done', attempts: 2 });
    } finally {
      await restarted.close();
      await first.close();
    }
  });

  it.skipIf(!POSTGRES_URL)('two workers on one Postgres never build the same bundle twice', async () => {
    const a = await createTestApp({ storage: 'postgres', env: { KYX_WORKER: 'off' } });
    const owner = await a.tenant({ plan: 'growth' });
    const checkId = await kyaCheck(a, owner);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await register(a, owner, { checkId, regulatorRef: `PAR-${i}` })).json().bundleId);
    const b = await createTestApp({ storage: 'postgres', sharing: a, env: { KYX_WORKER_POLL_MS: '20' } });
    const c = await createTestApp({ storage: 'postgres', sharing: a, env: { KYX_WORKER_POLL_MS: '20' } });
    try {
      for (const id of ids) expect((await waitUntilSettled(b, owner, id)).status).toBe('ready');
      const jobs = await a.context.storage.db.selectFrom('jobs').selectAll().where('kind', '=', BUNDLE_JOB).execute();
      expect(jobs).toHaveLength(12);
      for (const job of jobs) expect(job).toMatchObject({ status: 'done', attempts: 1 });
      const archives = await a.context.storage.db.selectFrom('bundle_archives').select('bundle_id').execute();
      expect(archives.map((r) => r.bundle_id).sort()).toEqual([...ids].sort());
    } finally {
      await c.close();
      await b.close();
      await a.close();
    }
  });

  it('reports what it skipped', () => {
    if (!POSTGRES_URL) warnSkipped('two bundle workers on one Postgres');
    expect(true).toBe(true);
  });
});
