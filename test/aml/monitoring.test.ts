// Ongoing monitoring: names enrolled with monitor: true are screened again when the lists change, on the changed
// entries only; a list update that adds one of 10,000 enrolled names alerts exactly that subject.
import { appendFile, copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { createMonitoring, setAccountMonitoring } from '../../src/aml/monitoring.ts';

const SHARED_LISTS = path.resolve(import.meta.dirname, '../../../shared/data/lists/current');
const NEWLY_LISTED = 'Jonathan Quincy Exampleton';
const DPL_LINE = '"JONATHAN QUINCY EXAMPLETON"\t"1 MAIN STREET"\t"SPRINGFIELD"\t"TX"\t"US"\t"75001"\t"11/01/2026"\t"11/01/2056"\t"Y"\t"2026-11-01"\t"F.R. NOTICE ADDED"\t"91 F.R. 1 11/01/2026"\n';

let t: TestApp;
let listFile: string;
let original: string;
let tenant: Tenant;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'kyx-monitoring-lists-'));
  listFile = path.join(dir, 'us_dpl.txt');
  await copyFile(path.join(SHARED_LISTS, 'us_dpl.txt'), listFile);
  original = await readFile(listFile, 'utf8');
  t = await createTestApp({ env: { KYX_LISTS_DIR: dir } });
  await t.context.services.aml.ready();
  tenant = await t.tenant();
});
afterAll(() => t.close());

const db = () => t.context.storage.db;
const api = (who: Tenant, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

/** Reloads the list file and waits until the re-screen of the new set of versions has finished. */
async function updateLists(): Promise<string> {
  const before = t.context.services.aml.snapshot()!.listsVersion;
  await t.context.services.aml.refresh();
  const version = t.context.services.aml.snapshot()!.listsVersion;
  for (let poll = 0; poll < 2400; poll++) {
    const run = await db().selectFrom('aml_monitoring_runs').selectAll().where('run_key', '=', `${before}>${version}`).executeTakeFirst();
    if (run?.finished_at) return version;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the re-screen did not finish');
}

const countOf = async (table: 'aml_monitored_subjects') => Number((await db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const monitoringEvents = () => db().selectFrom('events').selectAll().where('type', '=', 'aml.monitoring.match').execute();

describe('ongoing AML monitoring', () => {
  it('alerts exactly the one of 10,000 enrolled names that a list update adds, and keeps its history', async () => {
    // what the file's other tests stored, in whatever order they ran, is left out of the counts
    const subjectsBefore = await countOf('aml_monitored_subjects');
    const alertsBefore = new Set((await db().selectFrom('aml_monitoring_alerts').select('id').execute()).map((row) => row.id));
    const eventsBefore = new Set((await monitoringEvents()).map((row) => row.id));
    const enrolled = await api(tenant, 'POST', '/api/v1/aml/screen', { name: NEWLY_LISTED, type: 'person', monitor: true });
    expect(enrolled.statusCode).toBe(200);
    const { monitoringSubjectId: subjectId, status } = enrolled.json();
    expect(subjectId).toMatch(/^mon_/);
    expect(status).toBe('clear');
    // 9,999 more, of this tenant and another, through the service in batches
    const other = await t.tenant();
    const names = Array.from({ length: 9_999 }, (_, i) => `Person${i.toString(36)} Familyname${(i * 7919).toString(36)}`);
    for (let start = 0; start < names.length; start += 2_000) {
      const batch = names.slice(start, start + 2_000);
      const who = start % 4_000 === 0 ? tenant : other;
      await t.context.services.aml.screenAndStore(
        { accountId: who.accountId, keyEnvironment: 'test', monitor: batch.map(() => true) },
        batch.map((name) => ({ name, type: 'person' as const })),
      );
    }
    expect(await countOf('aml_monitored_subjects')).toBe(subjectsBefore + 10_000);

    await appendFile(listFile, DPL_LINE);
    const version = await updateLists();
    const alerts = (await db().selectFrom('aml_monitoring_alerts').selectAll().execute()).filter((alert) => !alertsBefore.has(alert.id));
    expect(alerts.map((alert) => [alert.subject_id, alert.change])).toEqual([[subjectId, 'new_match']]);
    const events = (await monitoringEvents()).filter((event) => !eventsBefore.has(event.id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ account_id: tenant.accountId, environment: 'sandbox' });
    expect(JSON.parse(events[0].data)).toMatchObject({ subjectId, listsVersion: version, changes: [{ change: 'new_match', match: { name: expect.stringMatching(/EXAMPLETON/i) } }] });

    const detail = (await api(tenant, 'GET', `/api/v1/aml/monitoring/subjects/${subjectId}`)).json();
    expect(detail).toMatchObject({ subjectId, status: 'active', listsVersion: version, matches: [{ name: expect.stringMatching(/EXAMPLETON/i) }] });
    expect(detail.alerts).toMatchObject([{ change: 'new_match' }]);

    // the entry is delisted: the history says so, no new alert is raised
    await writeFile(listFile, original);
    await updateLists();
    const history = (await api(tenant, 'GET', `/api/v1/aml/monitoring/subjects/${subjectId}`)).json();
    expect(history.alerts.map((alert: { change: string }) => alert.change)).toEqual(['removed_match', 'new_match']);
    expect(history.matches).toEqual([]);
    expect((await monitoringEvents()).filter((event) => !eventsBefore.has(event.id))).toHaveLength(1);
  });

  it("lists a tenant's subjects only, stops one on request, and answers 404 for another tenant's", async () => {
    const own = await t.tenant();
    const stranger = await t.tenant();
    const { monitoringSubjectId } = (await api(own, 'POST', '/api/v1/aml/screen', { name: 'Maria Watchlisted-Never', monitor: true })).json();
    expect((await api(own, 'POST', '/api/v1/aml/screen', { name: 'Not Monitored Person' })).json().monitoringSubjectId).toBeUndefined();
    expect((await api(own, 'GET', '/api/v1/aml/monitoring/subjects')).json().data.map((s: { subjectId: string }) => s.subjectId)).toEqual([monitoringSubjectId]);
    errorBody(await api(stranger, 'GET', `/api/v1/aml/monitoring/subjects/${monitoringSubjectId}`), 404, 'not_found');
    errorBody(await api(stranger, 'DELETE', `/api/v1/aml/monitoring/subjects/${monitoringSubjectId}`), 404, 'not_found');
    expect((await api(own, 'DELETE', `/api/v1/aml/monitoring/subjects/${monitoringSubjectId}`)).statusCode).toBe(204);
    expect((await api(own, 'GET', `/api/v1/aml/monitoring/subjects/${monitoringSubjectId}`)).json().status).toBe('stopped');
  });

  it('enrols the parties of live KYB checks of an account that enabled it (kyx monitoring enable), and nothing else', async () => {
    const request = { companyName: 'Monitoring Test Ltd', country: 'GB', registrationNumber: '07654321', owners: [{ name: 'Olivia Ownerperson', ownershipPercent: 40 }] };
    const subjectsOf = (who: Tenant) => db().selectFrom('aml_monitored_subjects').selectAll().where('account_id', '=', who.accountId).execute();
    const enabled = await t.tenant({ env: 'live', plan: 'growth' });
    const cli = kyx(['monitoring', 'enable', '--account', enabled.accountId, '--json'], {
      KYX_DATA_DIR: t.config.dataDir,
      DATABASE_URL: POSTGRES_URL,
      KYX_DATABASE_SCHEMA: t.config.databaseSchema,
      KYX_LOG_LEVEL: 'silent',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.json()).toEqual({ accountId: enabled.accountId, amlMonitoring: true });
    const verified = (await api(enabled, 'POST', '/api/v1/kyb/verify', request)).json();
    const subjects = await subjectsOf(enabled);
    expect(subjects.map((subject) => JSON.parse(subject.query).name).sort()).toEqual(['Monitoring Test Ltd', 'Olivia Ownerperson']);
    expect(subjects.every((subject) => subject.screening_id === verified.kybId && subject.environment === 'live')).toBe(true);

    // an account that did not enable it, and a sandbox check of one that did, enrol nothing
    const other = await t.tenant({ env: 'live', plan: 'growth' });
    await api(other, 'POST', '/api/v1/kyb/verify', request);
    expect(await subjectsOf(other)).toEqual([]);
    const sandbox = await t.tenant({ env: 'test' });
    await setAccountMonitoring(db(), sandbox.accountId, true);
    await api(sandbox, 'POST', '/api/v1/kyb/verify', request);
    expect(await subjectsOf(sandbox)).toEqual([]);
  });

  it('at start-up, or after the instance running a re-screen died, screens the names left behind against the whole lists', async () => {
    const who = await t.tenant();
    const monitoring = createMonitoring(db(), t.context.events);
    const snapshot = t.context.services.aml.snapshot()!;
    // enrolled before an update this instance never saw: the name was not listed then, it is now
    const now = new Date();
    await db().transaction().execute((trx) =>
      monitoring.enrol(trx, { id: 'mon_leftbehind0000000001', accountId: who.accountId, environment: 'sandbox', screeningId: 'aml_x', query: { name: 'Ali Kourani', type: 'person' }, matches: [], listsVersion: 'lv_older', now }),
    );
    // the runner of this instance's start-up re-screen died half-way, long enough ago for its run to be taken over
    await db().updateTable('aml_monitoring_runs').set({ finished_at: null, started_at: '2000-01-01T00:00:00.000Z' }).where('run_key', '=', `start>${snapshot.listsVersion}`).execute();
    expect(await monitoring.rescreenAll(null, snapshot)).not.toBe(false);
    const detail = (await api(who, 'GET', '/api/v1/aml/monitoring/subjects/mon_leftbehind0000000001')).json();
    expect(detail).toMatchObject({ listsVersion: snapshot.listsVersion, alerts: [{ change: 'new_match', match: { name: expect.stringMatching(/KOURANI/i) } }] });
    expect(await db().selectFrom('events').select('id').where('account_id', '=', who.accountId).where('type', '=', 'aml.monitoring.match').execute()).toHaveLength(1);
    // finished: nobody runs it again
    expect(await monitoring.rescreenAll(null, snapshot)).toBe(false);
  });
});
