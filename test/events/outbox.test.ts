import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const SHARED_LISTS = path.resolve(import.meta.dirname, '../../../shared/data/lists/current');

// The outbox: an event exists exactly when its cause committed.
describe('event outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    const lists = await mkdtemp(path.join(tmpdir(), 'kyx-outbox-lists-'));
    await copyFile(path.join(SHARED_LISTS, 'us_dpl.txt'), path.join(lists, 'us_dpl.txt'));
    t = await createTestApp({ env: { KYX_LISTS_DIR: lists } });
    await t.context.services.aml.ready();
  });
  afterAll(() => t.close());

  const eventsOf = (accountId: string) =>
    t.context.storage.db.selectFrom('events').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();

  it('a stored check emits check.completed with its id, kind and outcome, for its tenant only', async () => {
    const tenant = await t.tenant();
    const other = await t.tenant();
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/aml/screen', headers: tenant.headers, payload: { name: 'Jane Ordinary-Citizen' } });
    expect(response.statusCode).toBe(200);
    const { screeningId, status } = response.json() as { screeningId: string; status: string };
    const events = await eventsOf(tenant.accountId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'check.completed', environment: 'sandbox', dispatched_at: null });
    expect(JSON.parse(events[0]!.data)).toMatchObject({ checkId: screeningId, kind: 'aml', status });
    expect(events[0]!.id).toMatch(/^evt_/);
    expect(await eventsOf(other.accountId)).toHaveLength(0);
  });

  it('an event emitted in a transaction that rolls back is not stored', async () => {
    const tenant = await t.tenant();
    await expect(
      t.context.storage.db.transaction().execute(async (trx) => {
        await t.context.events.emit(trx, { accountId: tenant.accountId, environment: 'live', type: 'key.revoked', data: { keyId: tenant.keyId } });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await eventsOf(tenant.accountId)).toHaveLength(0);
  });
});
