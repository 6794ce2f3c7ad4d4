// Property-based fuzzing of every documented route: bodies shaped from each route's own schema (its property
// names, any JSON values, unicode edge cases, huge numbers, deep nesting) and arbitrary path values, with a valid
// key. No input may answer 5xx (bar the specified 501/503) or leave the contract's error body. Seed-fixed here;
// KYX_FUZZ_RUNS raises the count, and `npm run soak` runs the same generator over HTTP against several instances.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';
import { type FuzzOperation, fuzzOperations, fuzzRequests, fuzzViolation } from '../helpers/fuzz.ts';

const RUNS = Number(process.env.KYX_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.KYX_FUZZ_SEED ?? 20261124);

let t: TestApp;
let tenant: Tenant;
let operations: FuzzOperation[];

beforeAll(async () => {
  t = await createTestApp({ env: { KYX_FLOOD_LIMIT: '100000000', KYX_WORKER: 'false' } });
  tenant = await t.tenant({ plan: 'enterprise', env: 'test' });
  operations = fuzzOperations((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json());
});
afterAll(() => t.close());

describe('fuzzing every route', () => {
  it(`${RUNS} generated requests: never a 5xx, always the contract's error body`, async () => {
    await fc.assert(
      fc.asyncProperty(fuzzRequests(operations), async (request) => {
        const response = await t.app.inject({
          method: request.method as 'POST',
          url: request.url,
          headers: { ...tenant.headers, 'content-type': 'application/json' },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        const violation = fuzzViolation(request, response.statusCode, response.body);
        if (violation) throw new Error(violation);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
