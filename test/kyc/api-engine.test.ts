// How the KYC service holds its engine: started lazily, once, retried after a failed start, closed with the
// service; and the settings that refuse to start. A stand-in engine keeps these cases free of the worker pool.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KycEngine } from '../../src/kyc/index.ts';
import { loadConfig } from '../../src/config.ts';
import { createKycRepository } from '../../src/kyc/repository.ts';
import { KycEngineUnavailableError, createKycService } from '../../src/kyc/service.ts';
import type { KycVerifyRequest } from '../../src/kyc/schemas.ts';
import { type TestApp, createTestApp, errorBody } from '../helpers/app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let request: KycVerifyRequest;

beforeAll(async () => {
  [t, request] = await Promise.all([createTestApp(), readFile(path.join(ROOT, 'examples/kyc/request.json'), 'utf8').then(JSON.parse)]);
});
afterAll(async () => {
  await t?.close();
});

function serviceWith(startEngine: () => Promise<KycEngine>) {
  return createKycService({
    checks: t.context.checks,
    repository: createKycRepository(t.context.storage.db),
    startEngine,
    screenPerson: async () => ({ status: 'unavailable', matches: [] }),
    monitorNames: async () => undefined,
  });
}

describe('the engine behind the service', () => {
  it('is not started until needed, starts once for concurrent checks, and is retried after a failed start', async () => {
    const closed: number[] = [];
    let starts = 0;
    const service = serviceWith(async () => {
      starts += 1;
      if (starts === 1) throw new Error('workers could not start');
      const id = starts;
      return { analyse: async () => Promise.reject(new Error('analysis failed')), close: async () => void closed.push(id) };
    });
    expect(starts).toBe(0);
    const caller = { accountId: 'acct_none', keyEnvironment: 'test' as const };
    await expect(service.verify(caller, request)).rejects.toBeInstanceOf(KycEngineUnavailableError);
    const outcomes = await Promise.allSettled([service.verify(caller, request), service.verify(caller, request), service.warmUp()]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(outcomes[0]).toMatchObject({ reason: expect.any(KycEngineUnavailableError) });
    expect(starts).toBe(2);
    await service.close();
    expect(closed).toEqual([2]);
    await expect(service.warmUp()).rejects.toThrow(/closed/);
  });

  it('answers 503 not_ready, not 500, when the engine fails, and stores nothing', async () => {
    const failing = serviceWith(async () => Promise.reject(new Error('no memory for workers')));
    const original = t.context.services.kyc;
    t.context.services.kyc = failing;
    try {
      // Routes read the service when they are registered, so this needs an app built over the swapped context.
      const { buildApp } = await import('../../src/app.ts');
      const app = await buildApp(t.context, { logger: false });
      const tenant = await t.tenant({ env: 'live' });
      const response = await app.inject({ method: 'POST', url: '/api/v1/kyc/verify', headers: tenant.headers, payload: request });
      errorBody(response, 503, 'not_ready');
      await app.close();
      expect(await t.context.storage.db.selectFrom('kyc_checks').selectAll().where('account_id', '=', tenant.accountId).execute()).toEqual([]);
    } finally {
      t.context.services.kyc = original;
    }
  });
});

describe('settings', () => {
  it('reads KYX_KYC_WORKERS (default 1) and refuses nonsense', async () => {
    expect(loadConfig({}).kyc.workers).toBe(1);
    expect(loadConfig({ KYX_KYC_WORKERS: '3' }).kyc.workers).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'two', '64']) expect(() => loadConfig({ KYX_KYC_WORKERS: bad })).toThrow(/KYX_KYC_WORKERS/);
  });
});
