// No input may produce a 500 or crash the process: every served route gets malformed bodies, parameters and
// credentials, and must answer with a contract error (4xx, or the specified 501/503) and its body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';

const BODIES: { label: string; payload?: string; contentType?: string }[] = [
  { label: 'no body' },
  { label: 'empty object', payload: '{}', contentType: 'application/json' },
  { label: 'array', payload: '[1,2,3]', contentType: 'application/json' },
  { label: 'null', payload: 'null', contentType: 'application/json' },
  { label: 'string', payload: '"x"', contentType: 'application/json' },
  { label: 'number', payload: '42', contentType: 'application/json' },
  { label: 'malformed', payload: '{"a":', contentType: 'application/json' },
  { label: 'wrong types', payload: JSON.stringify({ name: 5, prompt: [], checkId: {}, documentType: 1, documentImage: true, queries: 'x', clientId: null, grantType: 7, regulatorRef: [] }), contentType: 'application/json' },
  { label: 'deep nesting', payload: '{"a":'.repeat(500) + '1' + '}'.repeat(500), contentType: 'application/json' },
  { label: 'control characters', payload: JSON.stringify({ name: 'a\u0000b\u0007', prompt: '\u202e\u0000', companyName: '\ud800', regulatorRef: '\u0000' }), contentType: 'application/json' },
  { label: 'form data', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { label: 'plain text', payload: 'hello', contentType: 'text/plain' },
];

const PARAM_VALUES = ['x', 'chk_' + 'A'.repeat(22), '%00', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(300), '%F0%9F%98%80'];

describe('no input produces a 5xx', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp({ env: { KYX_FLOOD_LIMIT: '100000' } });
    tenant = await t.tenant({ plan: 'enterprise', env: 'live' });
  });
  afterAll(() => t.close());

  it('every route, every malformed body and parameter', async () => {
    const failures: string[] = [];
    const routes = t.app.routeTable.filter((route) => !route.includes('/docs'));
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const [method, pattern] = route.split(' ') as ['GET' | 'POST', string];
      for (const value of PARAM_VALUES) {
        const url = pattern.replace(/:[A-Za-z]+/g, value);
        for (const body of method === 'POST' ? BODIES : [{ label: 'none' } as (typeof BODIES)[number]]) {
          for (const headers of [tenant.headers, {}, { authorization: 'Bearer svc_live_sk_' + '\u00e9'.repeat(40) }]) {
            const response = await t.app.inject({
              method,
              url,
              headers: { ...headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
              payload: body.payload,
            });
            const ok = response.statusCode < 500 || response.statusCode === 501 || response.statusCode === 503;
            const contractBody = response.statusCode < 400 || (() => {
              try {
                const json = response.json();
                return typeof json.code === 'string' && typeof json.message === 'string' && /^req_/.test(json.requestId);
              } catch {
                return false;
              }
            })();
            if (!ok || !contractBody) failures.push(`${method} ${url} [${body.label}] → ${response.statusCode} ${response.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
