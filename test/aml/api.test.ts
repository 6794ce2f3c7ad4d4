// The AML screening API end to end, on the real UN consolidated list and BIS Denied Persons List (copied into a
// temporary KYX_LISTS_DIR per app, so a test can break a file without touching ../shared).
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLists } from '../../src/aml/list-sources.ts';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { pdfText } from '../helpers/pdf.ts';
import { kyx } from '../helpers/cli.ts';

const SHARED_LISTS = path.resolve(import.meta.dirname, '../../../shared/data/lists/current');
const LIST_FILES = ['us_dpl.txt', 'un_consolidated.xml'];

const tempDirs: string[] = [];

async function listsDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-lists-'));
  tempDirs.push(dir);
  for (const file of LIST_FILES) await copyFile(path.join(SHARED_LISTS, file), path.join(dir, file));
  return dir;
}

async function appWithLists(dir: string | undefined): Promise<TestApp> {
  const t = await createTestApp({ env: dir ? { KYX_LISTS_DIR: dir } : {} });
  await t.context.services.aml.ready();
  return t;
}

function screenRequest(tenant: Tenant, payload: unknown) {
  return { method: 'POST' as const, url: '/api/v1/aml/screen', headers: tenant.headers, payload: payload as object };
}

let t: TestApp;
let sandboxTenant: Tenant;

beforeAll(async () => {
  t = await appWithLists(await listsDir());
  sandboxTenant = await t.tenant({ env: 'test' });
});

afterAll(async () => {
  await t?.close();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

describe('RPT-003', () => {
  it('renders the screening: query, lists and versions, every match with score and reasons, non-Latin names', async () => {
    // a transliterated query in Cyrillic for the listed ABDUL RAHMAN YASIN
    const body = (await t.app.inject(screenRequest(sandboxTenant, { name: 'Абдул Рахман Ясин', type: 'person' }))).json();
    expect(body.status).toBe('potential_match');
    const pdf = await t.app.inject({ method: 'GET', url: `/reports/RPT-003/${body.screeningId}.pdf`, headers: sandboxTenant.headers });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(body.screeningId);
    expect(text).toContain('Абдул Рахман Ясин');
    expect(text).toContain('ABDUL RAHMAN YASIN');
    expect(text).toContain(body.listsVersion);
    expect(text).toContain('un_consolidated');
    expect(text).toContain(String(body.matches[0].score));
  });
});

describe('screening (happy paths)', () => {
  it('screens a person given as name parts instead of one name', async () => {
    const response = await t.app.inject(screenRequest(sandboxTenant, { firstName: 'Abdul', middleName: 'Rahman', lastName: 'Yasin', type: 'person' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().matches[0].matchedName).toBe('ABDUL RAHMAN YASIN');
    const invalid = await t.app.inject(screenRequest(sandboxTenant, { firstName: 'Abdul', lastName: 7 }));
    expect(invalid.statusCode).toBe(400);
  });

  it('finds a listed person behind a typo and stores the result with the list versions used', async () => {
    // UN: "ABDUL RAHMAN YASIN"; one letter dropped from the last name.
    const response = await t.app.inject(screenRequest(sandboxTenant, { name: 'Abdul Rahman Yasn', type: 'person' }));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.screeningId).toMatch(/^aml_/);
    expect(body.status).toBe('potential_match');
    const [top] = body.matches;
    expect(top.matchedName).toBe('ABDUL RAHMAN YASIN');
    expect(top.lists).toEqual(['un_consolidated']);
    expect(top.score).toBeGreaterThanOrEqual(body.threshold);
    expect(top.reasons.join(' ')).toMatch(/YASN|YASIN/i);
    expect(body.listsVersion).toMatch(/^lv_/);
    expect(body.lists.map((l: { name: string }) => l.name)).toEqual(['un_consolidated', 'us_dpl']);
    expect(body.environment).toBe('sandbox');
    expect(body.query).toMatchObject({ name: 'Abdul Rahman Yasn', type: 'person' });
    expect(body.reportUrl).toBe(`http://kyx.test/reports/RPT-003/${body.screeningId}.pdf`);

    const stored = await t.app.inject({ method: 'GET', url: `/api/v1/aml/screenings/${body.screeningId}`, headers: sandboxTenant.headers });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual(body);

    const check = await t.context.checks.find(sandboxTenant.accountId, body.screeningId);
    expect(check).toMatchObject({ kind: 'aml', environment: 'sandbox', record: { listsVersion: body.listsVersion, matches: body.matches, query: body.query } });
  });

  it('clears an unlisted name', async () => {
    const response = await t.app.inject(screenRequest(sandboxTenant, { name: 'Margaret Ellingham', dateOfBirth: '1984-06-02', country: 'GB' }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'clear', matches: [], query: { country: 'GB', dateOfBirth: '1984-06-02' } });
  });

  it('screens a batch, storing each name as its own screening', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/aml/screen/batch',
      headers: sandboxTenant.headers,
      payload: { queries: [{ name: 'Aaron Abraham Villa' }, { name: 'Margaret Ellingham' }, { name: 'Eric Badege', type: 'person' }] },
    });
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results.map((r: { status: string }) => r.status)).toEqual(['potential_match', 'clear', 'potential_match']);
    expect(new Set(results.map((r: { screeningId: string }) => r.screeningId)).size).toBe(3);
    for (const result of results) {
      const stored = await t.app.inject({ method: 'GET', url: `/api/v1/aml/screenings/${result.screeningId}`, headers: sandboxTenant.headers });
      expect(stored.json()).toEqual(result);
    }
  });

  it('lists the loaded lists with their version, entity count and no error; /readyz is ready', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: sandboxTenant.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.listsVersion).toMatch(/^lv_/);
    expect(body.lists).toEqual([
      expect.objectContaining({ name: 'un_consolidated', source: 'local', format: 'un_xml', entityCount: 1003, lastError: null }),
      expect.objectContaining({ name: 'us_dpl', source: 'local', format: 'bis_dpl_tsv', lastError: null }),
    ]);
    expect(body.lists[0].versionDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toContainEqual({ name: 'aml-lists', ok: true });
  });

  it('counts live screenings in the amlScreenings meter (a batch counts each name) and never test ones', async () => {
    const live = await t.tenant({ env: 'live' });
    await t.app.inject(screenRequest(live, { name: 'Margaret Ellingham' }));
    await t.app.inject({ method: 'POST', url: '/api/v1/aml/screen/batch', headers: live.headers, payload: { queries: [{ name: 'Eric Badege' }, { name: 'Jan Novak' }] } });
    const meters = async (tenant: Tenant) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: tenant.headers })).json().usage;
    // The batch is one API call (thisMonth: two screening calls + this validate-key) but two screenings.
    expect(await meters(live)).toMatchObject({ amlScreenings: 3, thisMonth: 3 });
    const test = await t.tenant({ env: 'test' });
    await t.app.inject(screenRequest(test, { name: 'Margaret Ellingham' }));
    expect(await meters(test)).toMatchObject({ amlScreenings: 0, thisMonth: 2 });
  });

  it('screens in-process for KYC and KYB', async () => {
    const aml = t.context.services.aml;
    expect((await aml.screenPerson({ firstName: 'Eric', lastName: 'Badege' })).status).toBe('potential_match');
    expect((await aml.screenCompany({ name: 'Margaret Ellingham Bakery Ltd', country: 'GB' })).status).toBe('clear');
  });
});

describe('bad input (400 with the field named, never 5xx)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['no name', {}, 'body/name'],
    ['an empty name', { name: '' }, 'body/name'],
    ['a one-character name', { name: 'A' }, 'body/name'],
    ['a 10,000-character name', { name: 'Ab '.repeat(3334) }, 'body/name'],
    ['control characters', { name: 'Eric\u0007 Badege' }, 'body/name'],
    ['a bidi override', { name: 'Eric \u202eegedaB' }, 'body/name'],
    ['an unknown type', { name: 'Eric Badege', type: 'vessel' }, 'body/type'],
    ['an impossible dateOfBirth', { name: 'Eric Badege', dateOfBirth: '1990-02-30' }, 'body/dateOfBirth'],
    ['a future dateOfBirth', { name: 'Eric Badege', dateOfBirth: '2999-01-01' }, 'body/dateOfBirth'],
    ['an unknown country', { name: 'Eric Badege', country: 'Atlantis' }, 'body/country'],
    ['a threshold out of range', { name: 'Eric Badege', threshold: 2 }, 'body/threshold'],
    ['an unknown field', { name: 'Eric Badege', nickname: 'x' }, 'body/nickname'],
  ];
  it.each(cases)('%s', async (_label, payload, field) => {
    const body = errorBody(await t.app.inject(screenRequest(sandboxTenant, payload)), 400, 'invalid_request');
    expect(body.errors.map((e: { path: string }) => e.path)).toContain(field);
  });

  it('accepts mixed scripts in one name', async () => {
    const response = await t.app.inject(screenRequest(sandboxTenant, { name: 'Иван Petrov' }));
    expect(response.statusCode).toBe(200);
  });

  it('refuses a batch of 101 names and names the bad entry of a batch', async () => {
    const tooMany = { queries: Array.from({ length: 101 }, (_, i) => ({ name: `Person Number${i}` })) };
    const big = errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/aml/screen/batch', headers: sandboxTenant.headers, payload: tooMany }), 400, 'invalid_request');
    expect(big.errors[0].path).toBe('body/queries');
    const oneBad = { queries: [{ name: 'Eric Badege' }, { name: 'x' }] };
    const bad = errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/aml/screen/batch', headers: sandboxTenant.headers, payload: oneBad }), 400, 'invalid_request');
    expect(bad.errors).toEqual([{ path: 'body/queries/1/name', message: expect.any(String) }]);
  });

  it('answers 404 for an unknown screening id', async () => {
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/aml/screenings/aml_doesnotexist', headers: sandboxTenant.headers }), 404, 'not_found');
  });
});

describe('lists unavailable or broken', () => {
  it('fails closed with 503 lists_unavailable when no list is loaded, storing and billing nothing', async () => {
    const bare = await appWithLists(undefined);
    try {
      const live = await bare.tenant({ env: 'live' });
      errorBody(await bare.app.inject(screenRequest(live, { name: 'Eric Badege' })), 503, 'lists_unavailable');
      errorBody(await bare.app.inject({ method: 'POST', url: '/api/v1/aml/screen/batch', headers: live.headers, payload: { queries: [{ name: 'Eric Badege' }] } }), 503, 'lists_unavailable');
      const lists = await bare.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: live.headers });
      expect(lists.json()).toEqual({ listsVersion: null, lists: [] });
      const usage = (await bare.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: live.headers })).json().usage;
      expect(usage.amlScreenings).toBe(0);
      expect(await bare.context.storage.db.selectFrom('aml_screenings').select('id').execute()).toEqual([]);
      expect(await bare.context.services.aml.screenPerson({ name: 'Eric Badege' })).toMatchObject({ status: 'unavailable', matches: [] });
      // Nothing configured: the instance still serves KYC/KYB/KYA, so it stays ready.
      expect((await bare.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });

  it('keeps serving the last good version of a list whose file breaks, and reports it', async () => {
    const dir = await listsDir();
    const broken = await appWithLists(dir);
    try {
      const tenant = await broken.tenant();
      const before = (await broken.app.inject(screenRequest(tenant, { name: 'Eric Badege' }))).json();
      const un = path.join(dir, 'un_consolidated.xml');
      await writeFile(un, (await readFile(un, 'utf8')).slice(0, 5000));
      await broken.context.services.aml.refresh();

      const lists = (await broken.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: tenant.headers })).json();
      const unStatus = lists.lists.find((l: { name: string }) => l.name === 'un_consolidated');
      expect(unStatus.lastError).toEqual(expect.any(String));
      expect(unStatus.entityCount).toBe(1003);
      const after = (await broken.app.inject(screenRequest(tenant, { name: 'Eric Badege' }))).json();
      expect(after.status).toBe('potential_match');
      expect(after.listsVersion).toBe(before.listsVersion);
      const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const listsCheck = ready.json().checks.find((c: { name: string }) => c.name === 'aml-lists');
      expect(listsCheck.warnings).toEqual([expect.stringMatching(/^un_consolidated: /)]);
    } finally {
      await broken.close();
    }
  });

  it('is not ready while the configured lists cannot be loaded, and names the broken list in /readyz', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-lists-'));
    tempDirs.push(dir);
    const un = await readFile(path.join(SHARED_LISTS, 'un_consolidated.xml'), 'utf8');
    await writeFile(path.join(dir, 'un_consolidated.xml'), un.slice(0, 5000));
    const failing = await appWithLists(dir);
    try {
      const ready = await failing.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      const check = ready.json().checks.find((c: { name: string }) => c.name === 'aml-lists');
      expect(check).toMatchObject({ ok: false, error: expect.stringContaining('un_consolidated') });
      const tenant = await failing.tenant();
      errorBody(await failing.app.inject(screenRequest(tenant, { name: 'Eric Badege' })), 503, 'lists_unavailable');
    } finally {
      await failing.close();
    }
  });
});

describe('a lists folder with symbolic links', () => {
  /** A folder whose lists are links: one to a list in a subfolder (followed), one to a file outside (skipped). */
  async function linkedListsDir(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-lists-'));
    const outside = await mkdtemp(path.join(tmpdir(), 'kyx-aml-outside-'));
    tempDirs.push(dir, outside);
    await mkdir(path.join(dir, '..data'));
    await copyFile(path.join(SHARED_LISTS, 'us_dpl.txt'), path.join(dir, '..data', 'us_dpl.txt'));
    await symlink(path.join('..data', 'us_dpl.txt'), path.join(dir, 'us_dpl.txt'));
    await copyFile(path.join(SHARED_LISTS, 'un_consolidated.xml'), path.join(outside, 'un_consolidated.xml'));
    await symlink(path.join(outside, 'un_consolidated.xml'), path.join(dir, 'un_consolidated.xml'));
    return dir;
  }
  const OUTSIDE = 'file un_consolidated.xml not loaded: symbolic link to a file outside the lists folder';

  it('serves a list reached through a link and names the skipped file in /readyz and kyx lists status', async () => {
    const dir = await linkedListsDir();
    const linked = await appWithLists(dir);
    try {
      const tenant = await linked.tenant();
      const lists = (await linked.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: tenant.headers })).json();
      expect(lists.lists.map((l: { name: string; entityCount: number }) => [l.name, l.entityCount > 0])).toEqual([['us_dpl', true]]);
      const ready = await linked.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().checks.find((c: { name: string }) => c.name === 'aml-lists').warnings).toEqual([OUTSIDE]);
    } finally {
      await linked.close();
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-data-'));
    tempDirs.push(dataDir);
    const status = kyx(['lists', 'status', '--json'], { KYX_DATA_DIR: dataDir, KYX_LISTS_DIR: dir });
    expect(status.status).toBe(0);
    expect(status.json().skipped).toEqual([{ file: 'un_consolidated.xml', reason: 'symbolic link to a file outside the lists folder' }]);
    const human = kyx(['lists', 'status'], { KYX_DATA_DIR: dataDir, KYX_LISTS_DIR: dir });
    expect(human.stdout).toContain('skipped un_consolidated.xml: symbolic link to a file outside the lists folder');
  });

  it('says why nothing is loaded when every file was skipped', async () => {
    const dir = await linkedListsDir();
    await rm(path.join(dir, 'us_dpl.txt'));
    const skippedOnly = await appWithLists(dir);
    try {
      const ready = await skippedOnly.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.find((c: { name: string }) => c.name === 'aml-lists').error).toBe(`no sanctions list is loaded (${OUTSIDE})`);
    } finally {
      await skippedOnly.close();
    }
  });
});

describe('kyx lists import', () => {
  it('keeps a list that parses so the next start serves it offline, and refuses a file that does not parse', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kyx-aml-data-'));
    tempDirs.push(dataDir);
    const brokenFile = path.join(dataDir, 'broken_un.xml');
    await writeFile(brokenFile, (await readFile(path.join(SHARED_LISTS, 'un_consolidated.xml'), 'utf8')).slice(0, 5000));
    const results = await importLists(dataDir, [path.join(SHARED_LISTS, 'us_dpl.txt'), brokenFile]);
    expect(results).toEqual([
      expect.objectContaining({ name: 'us_dpl', format: 'bis_dpl_tsv', entityCount: 459, error: null }),
      expect.objectContaining({ name: 'broken_un', format: 'un_xml', error: expect.any(String) }),
    ]);

    const offline = await createTestApp({ env: { KYX_DATA_DIR: dataDir } });
    try {
      await offline.context.services.aml.ready();
      const tenant = await offline.tenant();
      const lists = (await offline.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: tenant.headers })).json();
      expect(lists.lists).toEqual([expect.objectContaining({ name: 'us_dpl', source: 'local', entityCount: 459, lastError: null })]);
      const screened = (await offline.app.inject(screenRequest(tenant, { name: 'Aaron Abraham Vila' }))).json();
      expect(screened).toMatchObject({ status: 'potential_match', lists: [expect.objectContaining({ name: 'us_dpl' })] });
    } finally {
      await offline.close();
    }
  });
});

describe('security', () => {
  it("never shows another tenant's screening", async () => {
    const screened = (await t.app.inject(screenRequest(sandboxTenant, { name: 'Eric Badege' }))).json();
    const other = await t.tenant();
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/aml/screenings/${screened.screeningId}`, headers: other.headers }), 404, 'not_found');
    expect(await t.context.checks.find(other.accountId, screened.screeningId)).toBeUndefined();
  });

  it('requires a credential and the aml:screen / aml:read permissions', async () => {
    errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/aml/screen', payload: { name: 'Eric Badege' } }), 401, 'unauthorized');
    const readOnly = await t.tenant({ scopes: ['aml:read'] });
    errorBody(await t.app.inject(screenRequest(readOnly, { name: 'Eric Badege' })), 403, 'forbidden');
    const screenOnly = await t.tenant({ scopes: ['aml:screen'] });
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/aml/lists', headers: screenOnly.headers }), 403, 'forbidden');
    const screened = (await t.app.inject(screenRequest(screenOnly, { name: 'Eric Badege' }))).json();
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/aml/screenings/${screened.screeningId}`, headers: screenOnly.headers }), 403, 'forbidden');
  });
});
