import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { type TestApp, createTestApp } from '../helpers/app.ts';

describe('GET /openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  // The stored copy changes only on purpose: KYX_UPDATE_OPENAPI_SNAPSHOT=1 npx vitest run test/foundation/openapi.test.ts
  it('is byte-identical to the stored copy', async () => {
    const stored = new URL('./openapi.snapshot.json', import.meta.url);
    const served = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    if (process.env.KYX_UPDATE_OPENAPI_SNAPSHOT === '1') writeFileSync(stored, served);
    expect(served).toBe(readFileSync(stored, 'utf8'));
  });

  it('lists every route the server has, with its responses', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const served: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { responses?: Record<string, unknown> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        served.push(`${method.toUpperCase()} ${path}`);
        expect(Object.keys(operation.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    const toOpenApiPath = (route: string) => route.replace(/:([A-Za-z]+)/g, '{$1}');
    expect(t.app.routeTable.length).toBeGreaterThan(5);
    for (const route of t.app.routeTable) expect(served).toContain(toOpenApiPath(route));
    for (const route of ['POST /auth/token', 'GET /.well-known/jwks.json', 'POST /api/auth/validate', 'GET /api/v1/validate-key', 'GET /healthz', 'GET /readyz']) {
      expect(served).toContain(route);
    }
    const validateKey = document.paths['/api/v1/validate-key'].get;
    expect(Object.keys(validateKey.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    expect(validateKey.security).toEqual([{ bearerAuth: [] }]);
  });

  it('serves the docs UI at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger');
  });
});
