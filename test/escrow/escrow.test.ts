import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { createEscrow } from '../../src/escrow/repository.ts';
import { dropPostgresSchema } from '../../src/storage/database.ts';

describe('escrow read API', () => {
  let t: TestApp;
  let owner: Tenant;
  let other: Tenant;
  let escrowId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.tenant({ env: 'live' });
    other = await t.tenant({ env: 'live' });
    escrowId = (
      await createEscrow(t.context.storage.db, { accountId: owner.accountId, amount: 125_000, currency: 'EUR', buyer: 'Buyer GmbH', seller: 'Seller SA', description: 'Machine' })
    ).escrowId;
  });
  afterAll(() => t.close());

  it('returns the escrow with the contract fields', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/escrow/${escrowId}`, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ escrowId, status: 'open', amount: 125000, currency: 'EUR', buyer: 'Buyer GmbH', seller: 'Seller SA', description: 'Machine' });
    expect(Date.parse(body.createdAt)).not.toBeNaN();
    expect(body.updatedAt).toBe(body.createdAt);
  });

  it("another tenant's escrow and an unknown id are both 404", async () => {
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/escrow/${escrowId}`, headers: other.headers }), 404, 'not_found');
    errorBody(await t.app.inject({ method: 'GET', url: '/api/v1/escrow/esc_unknown', headers: owner.headers }), 404, 'not_found');
  });

  it('needs escrow:read', async () => {
    const narrow = await t.tenant({ scopes: ['kyc:read'] });
    errorBody(await t.app.inject({ method: 'GET', url: `/api/v1/escrow/${escrowId}`, headers: narrow.headers }), 403, 'forbidden');
  });

  it.each([
    ['a JSON body', 'application/json', JSON.stringify({ amount: 100, buyer: 'a', seller: 'b' })],
    ['malformed JSON', 'application/json', '{"amount": '],
    ['XML', 'application/xml', '<escrow/>'],
    ['no body', undefined, undefined],
  ])('POST /api/v1/escrow/initiate answers 410 for %s with test and live keys and creates nothing', async (_label, contentType, payload) => {
    const before = await t.context.storage.db.selectFrom('escrows').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const env of ['test', 'live'] as const) {
      const tenant = await t.tenant({ env });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/escrow/initiate',
        headers: { ...tenant.headers, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });
      errorBody(response, 410, 'escrow_api_unavailable');
    }
    const after = await t.context.storage.db.selectFrom('escrows').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('POST /api/v1/escrow/initiate still needs a valid credential', async () => {
    errorBody(await t.app.inject({ method: 'POST', url: '/api/v1/escrow/initiate', payload: {} }), 401, 'unauthorized');
  });
});

describe('escrow operator CLI', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-escrow-'));
  const schema = `kyx_t_${randomBytes(6).toString('hex')}`;
  const env = { KYX_DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL, KYX_DATABASE_SCHEMA: POSTGRES_URL ? schema : undefined };
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (POSTGRES_URL) await dropPostgresSchema(POSTGRES_URL, schema);
  });

  it('kyx escrow create and import, then the escrows are readable through the API', async () => {
    const accountId = kyx(['accounts', 'create', '--name', 'Escrow Co', '--plan', 'micro', '--json'], env).json().accountId;
    const key = kyx(['keys', 'create', '--account', accountId, '--env', 'live', '--json'], env).json().key;
    const created = kyx(['escrow', 'create', '--account', accountId, '--amount', '5000', '--currency', 'USD', '--buyer', 'B', '--seller', 'S', '--json'], env);
    expect(created.status).toBe(0);
    expect(created.json().escrowId).toMatch(/^esc_/);

    const file = path.join(dataDir, 'escrows.json');
    fs.writeFileSync(file, JSON.stringify([
      { escrowId: 'esc_legacy00000001', accountId, status: 'funded', amount: 990, currency: 'GBP', buyer: 'X', seller: 'Y', createdAt: '2024-02-01T10:00:00Z', updatedAt: '2024-03-01T10:00:00Z' },
    ]));
    const imported = kyx(['escrow', 'import', file, '--json'], env);
    expect(imported.status).toBe(0);
    expect(imported.json()).toEqual({ imported: 1, escrowIds: ['esc_legacy00000001'] });

    fs.writeFileSync(file, JSON.stringify([{ accountId, amount: -1, currency: 'usd', buyer: '', seller: 'Y' }]));
    const refused = kyx(['escrow', 'import', file], env);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/amount must be a positive integer/);
    expect(refused.stderr).toMatch(/currency must be an ISO 4217 code/);

    const t = await createTestApp({ sharing: { config: { dataDir, databaseSchema: POSTGRES_URL ? schema : undefined, redisPrefix: 'kyx:escrowcli:' } } as TestApp });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/escrow/esc_legacy00000001', headers: { authorization: `Bearer ${key}` } });
      expect(response.json()).toMatchObject({ escrowId: 'esc_legacy00000001', status: 'funded', amount: 990, currency: 'GBP', createdAt: '2024-02-01T10:00:00.000Z', updatedAt: '2024-03-01T10:00:00.000Z' });
    } finally {
      await t.close();
    }
  });
});
