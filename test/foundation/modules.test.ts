// The composition root and the check store: modules set up after what they require, one store for every kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupOrder } from '../../src/bootstrap.ts';
import type { DomainModule, ServiceName } from '../../src/core.ts';
import { CHECK_KINDS, MODULES } from '../../src/domains.ts';
import { DomainError } from '../../src/errors.ts';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';

const module = (name: string, requires: string[] = []) =>
  ({ name, requires, setup: async () => ({}) }) as unknown as DomainModule<unknown, ServiceName>;

describe('setupOrder', () => {
  it('sets up every module after the ones it requires', () => {
    const order = setupOrder(MODULES).map((m) => m.name);
    expect(order.indexOf('aml')).toBeLessThan(order.indexOf('kyc'));
    expect(order.indexOf('aml')).toBeLessThan(order.indexOf('kyb'));
    expect(setupOrder([module('b', ['a']), module('a')]).map((m) => m.name)).toEqual(['a', 'b']);
  });

  it('refuses a requirement nobody provides, and modules that require each other', () => {
    expect(() => setupOrder([module('kyc', ['aml'])])).toThrow(/kyc requires aml/);
    expect(() => setupOrder([module('a', ['b']), module('b', ['a'])])).toThrow(/a → b → a/);
  });

  it('registers each check kind once, with its own prefix, table, meter and report', () => {
    expect(CHECK_KINDS.map((kind) => [kind.kind, kind.idPrefix, kind.table, kind.meter, kind.report.code])).toEqual([
      ['aml', 'aml', 'aml_screenings', 'amlScreenings', 'RPT-003'],
      ['kyc', 'chk', 'kyc_checks', 'kycChecks', 'RPT-001'],
      ['kyb', 'kyb', 'kyb_checks', 'kybChecks', 'RPT-002'],
      ['kya', 'kya', 'kya_verifications', 'kyaChecks', 'RPT-KYA'],
    ]);
  });
});

describe('the check store', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;

  beforeAll(async () => {
    t = await createTestApp();
    [tenant, other] = await Promise.all([t.tenant({ env: 'live' }), t.tenant({ env: 'live' })]);
    const { checks } = t.context;
    await checks.transaction(async (trx) => {
      const rows: Array<[string, number, Record<string, string | number | null>]> = [
        ['kyb', 1, { status: 'passed' }],
        ['aml', 2, { status: 'clear', lists_version: 'v1' }],
        ['kyb', 3, { status: 'review' }],
        ['aml', 4, { status: 'clear', lists_version: 'v1' }],
        ['kyb', 5, { status: 'failed' }],
      ];
      for (const [kind, second, columns] of rows) {
        const id = checks.newId(kind);
        await checks.insert(trx, kind, { id, accountId: tenant.accountId, environment: 'live', createdAt: at(second), record: { id, second }, columns });
      }
      const foreign = checks.newId('aml');
      await checks.insert(trx, 'aml', { id: foreign, accountId: other.accountId, environment: 'live', createdAt: at(9), record: { id: foreign }, columns: { status: 'clear', lists_version: 'v1' } });
    });
  });
  afterAll(() => t?.close());

  it('lists every kind of one tenant newest first, a page at a time', async () => {
    const seconds: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.context.checks.list(tenant.accountId, { limit: 2, cursor });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seconds.push(...page.data.map((check) => check.record.second as number));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seconds).toEqual([5, 4, 3, 2, 1]);
    const onlyAml = await t.context.checks.list(tenant.accountId, { kinds: ['aml'], limit: 10 });
    expect(onlyAml.data.map((check) => [check.kind, check.record.second])).toEqual([['aml', 4], ['aml', 2]]);
  });

  it('pages through checks of several kinds made at the same instant without skipping or repeating one', async () => {
    const { checks } = t.context;
    const owner = await t.tenant({ env: 'test' });
    const ids: string[] = [];
    await checks.transaction(async (trx) => {
      for (const kind of ['aml', 'kyb', 'aml', 'kyb', 'aml', 'kyb']) {
        const id = checks.newId(kind);
        ids.push(id);
        const columns: Record<string, string> = kind === 'aml' ? { status: 'clear', lists_version: 'v1' } : { status: 'passed' };
        await checks.insert(trx, kind, { id, accountId: owner.accountId, environment: 'sandbox', createdAt: at(30), record: { id }, columns });
      }
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await checks.list(owner.accountId, { limit: 1, cursor });
      seen.push(...page.data.map((check) => check.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect((await checks.list(owner.accountId, { limit: 10 })).data.map((check) => check.id)).toEqual(seen);
  });

  it('summarises a check of any kind the same way for lists', async () => {
    const { checks } = t.context;
    const owner = await t.tenant({ env: 'test' });
    const id = checks.newId('aml');
    const record = { screeningId: id, status: 'potential_match', query: { name: 'Ivan Petrov' } };
    await checks.transaction((trx) =>
      checks.insert(trx, 'aml', { id, accountId: owner.accountId, environment: 'sandbox', createdAt: at(40), record, columns: { status: 'potential_match', lists_version: 'v1' } }),
    );
    expect((await checks.find(owner.accountId, id))?.summary).toEqual({ status: 'potential_match', subject: 'Ivan Petrov' });
  });

  it('bills the meter of each live check it stores', async () => {
    const meters = await t.context.meters.read(tenant.accountId, new Date(at(0)));
    expect(meters).toMatchObject({ kybChecks: 3, amlScreenings: 2, kycChecks: 0, kyaChecks: 0 });
  });

  it('finds a check only for its own tenant and, when asked, only of its kind', async () => {
    const [newest] = (await t.context.checks.list(tenant.accountId, { limit: 1 })).data;
    expect(await t.context.checks.find(tenant.accountId, newest.id)).toMatchObject({ id: newest.id, kind: 'kyb', environment: 'live' });
    expect(await t.context.checks.find(tenant.accountId, newest.id, 'aml')).toBeUndefined();
    expect(await t.context.checks.find(other.accountId, newest.id)).toBeUndefined();
    expect(await t.context.checks.find(tenant.accountId, 'bnd_123')).toBeUndefined();
  });

  it('refuses a cursor it did not issue, naming the query parameter', async () => {
    const attempt = t.context.checks.list(tenant.accountId, { limit: 2, cursor: 'not-a-cursor' });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_input', location: 'querystring', issues: [{ path: '/cursor' }] });
  });
});
