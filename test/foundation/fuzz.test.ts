// Property-based fuzzing of every documented route: bodies shaped from each route's own schema (its property
// names, any JSON values, unicode edge cases, huge numbers, deep nesting) and arbitrary path values, with a valid
// key. No input may answer 5xx (bar the specified 501/503) or leave the contract's error body. Seed-fixed here;
// KYX_FUZZ_RUNS raises the count for a soak run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';

const RUNS = Number(process.env.KYX_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.KYX_FUZZ_SEED ?? 20261124);

interface Operation {
  method: string;
  path: string;
  properties: string[];
}

let t: TestApp;
let tenant: Tenant;
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp({ env: { KYX_FLOOD_LIMIT: '100000000', KYX_WORKER: 'false' } });
  tenant = await t.tenant({ plan: 'enterprise', env: 'test' });
  const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      properties: Object.values(operation.requestBody?.content ?? {}).flatMap((content) => Object.keys(content.schema?.properties ?? {})),
    })),
  );
});
afterAll(() => t.close());

const edgeStrings = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '\ud800', '😀'.repeat(50), 'a'.repeat(5000), '../../etc/passwd', '%00', '${x}', '<script>', 'NaN', '-0', '1e309'),
);
const edgeNumbers = fc.oneof(fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -1e308, 2 ** 53), fc.integer());
const leaf = fc.oneof(edgeStrings, edgeNumbers, fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 4 })),
})).node;

function bodyFor(operation: Operation) {
  const known = operation.properties.length ? fc.dictionary(fc.constantFrom(...operation.properties), value, { maxKeys: operation.properties.length }) : fc.constant({});
  return fc.oneof(known, fc.tuple(known, fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })), value, fc.constant('{"deep":'.repeat(200)));
}

describe('fuzzing every route', () => {
  it(`${RUNS} generated requests: never a 5xx, always the contract's error body`, async () => {
    const arbitrary = fc
      .integer({ min: 0, max: operations.length - 1 })
      .chain((index) => fc.tuple(fc.constant(operations[index]), bodyFor(operations[index]), fc.array(edgeStrings, { minLength: 3, maxLength: 3 })));
    await fc.assert(
      fc.asyncProperty(arbitrary, async ([operation, body, params]) => {
        let position = 0;
        const url = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(Buffer.from(params[position++ % params.length]).toString()) || 'x');
        const raw = typeof body === 'string' && body.startsWith('{"deep"');
        const response = await t.app.inject({
          method: operation.method as 'POST',
          url,
          headers: { ...tenant.headers, 'content-type': 'application/json' },
          ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: raw ? body : JSON.stringify(body) }),
        });
        const status = response.statusCode;
        const allowed = status < 500 || status === 501 || status === 503;
        if (!allowed) throw new Error(`${operation.method} ${url} → ${status} ${response.body.slice(0, 200)}`);
        if (status >= 400) {
          const answer = response.json();
          expect(typeof answer.code).toBe('string');
          expect(answer.requestId).toMatch(/^req_/);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
