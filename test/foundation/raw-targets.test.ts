// A request target written differently (percent-escapes, an absolute-form URL) reaches the same route, so it must meet
// the same gate and the same log redaction. Over a real socket: `inject` normalises the target before Fastify sees it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { originPath, originTarget } from '../../src/http/route-path.ts';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, createTestApp } from '../helpers/app.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `method target HTTP/1.1` exactly as written and reads the whole answer. */
function send(app: FastifyInstance, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawAnswer> {
  const { port } = app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const lines = [`${method} ${target} HTTP/1.1`, 'Host: x', 'Connection: close', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

const codeOf = (answer: RawAnswer) => JSON.parse(answer.body).code;

describe('originPath', () => {
  it('decodes the path as the router does and drops scheme, host, query and fragment', () => {
    expect(originPath('/%61pi/v1/validate-key?x=1')).toBe('/api/v1/validate-key');
    expect(originPath('http://x/api/v1/validate-key')).toBe('/api/v1/validate-key');
    expect(originPath('HTTPS://x:8080/%64ashboard/setup/abc#f')).toBe('/dashboard/setup/abc');
    expect(originPath('http://x?q=1')).toBe('/');
    expect(originPath('/bad%zz')).toBe('/bad%zz');
    // escapes that would change how the path splits stay escaped
    expect(originPath('/api/v1/checks/a%2Fb%3Fc%23d%25e%41')).toBe('/api/v1/checks/a%2Fb%3Fc%23d%25eA');
    expect(originTarget('http://x/%61pi/v1/kyb/verify?a=%41')).toBe('/api/v1/kyb/verify?a=%41');
    expect(originTarget('/api/v1/kyb/verify')).toBe('/api/v1/kyb/verify');
  });
});

describe('the gate over a real socket', () => {
  it('meters, caps and flood-limits /api targets however they are written', async () => {
    // its own instance: the flood limit of 4 per hour counts every request from 127.0.0.1
    const t = await createTestApp({ env: { KYX_FLOOD_LIMIT: '4', KYX_FLOOD_WINDOW_SECONDS: '3600' } });
    onTestFinished(() => t.close());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const tenant = await t.tenant({ plan: 'micro', dailyCap: 3 });
    const auth = { authorization: tenant.headers.authorization };
    const written = ['/%61pi/v1/validate-key', '/%61pi/v1/validate-key?x=1', 'http://x/api/v1/validate-key'];
    const remaining: string[] = [];
    for (const target of written) {
      const answer = await send(t.app, 'GET', target, auth);
      expect({ target, status: answer.status }).toEqual({ target, status: 200 });
      expect(answer.headers['x-quota-limit']).toBeDefined();
      expect(answer.headers['x-ratelimit-limit']).toBeDefined();
      remaining.push(answer.headers['ratelimit-remaining']);
    }
    expect(remaining).toEqual(['3', '2', '1']);
    expect((await t.context.usage.peek(tenant.accountId, new Date())).today).toBe(3);
    // the day's cap of 3 is used up, whichever way the fourth request is written
    const capped = await send(t.app, 'GET', 'http://x/%61pi/v1/validate-key', auth);
    expect([capped.status, codeOf(capped)]).toEqual([429, 'DAILY_CAP_EXCEEDED']);
    // and the fifth request from this address is past the flood limit of 4
    const flooded = await send(t.app, 'GET', '/%61pi/v1/validate-key', auth);
    expect([flooded.status, codeOf(flooded)]).toEqual([429, 'rate_limited']);
    expect(flooded.headers['retry-after']).toBeDefined();
    expect((await t.context.usage.peek(tenant.accountId, new Date())).today).toBe(3);
  });
});

describe('Idempotency-Key and the set-up token over a real socket', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('applies to a POST whose /api/v1 target is written with escapes or as an absolute URL', async () => {
    const tenant = await t.tenant();
    const company = JSON.stringify(kybSandboxScenarios.find((scenario) => scenario.id === 'active_company')!.request);
    const headers = { authorization: tenant.headers.authorization, 'content-type': 'application/json', 'idempotency-key': 'raw-target-1' };
    const first = await send(t.app, 'POST', '/%61pi/v1/kyb/verify', headers, company);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(t.app, 'POST', 'http://x/%61pi/v1/kyb/verify', headers, company);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await t.context.usage.peek(tenant.accountId, new Date())).today).toBe(1);
  });

  it('never reaches the log, however the set-up link is written', async () => {
    const lines: string[] = [];
    const app = await buildApp(t.context, { logger: { level: 'trace', stream: { write: (line) => void lines.push(line) } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    let token = '';
    try {
      const tenant = await t.tenant();
      const { setupUrl } = await t.context.services.users.invite(tenant.accountId, { email: 'someone@example.com', role: 'analyst' });
      token = setupUrl.split('/').at(-1)!;
      const routed = [`/%64ashboard/setup/${token}`, `/dashboard/%73etup/${token}`, `http://x/dashboard/setup/${token}`, `/dashboard/setup/${token}?a=1`];
      for (const target of routed) expect({ target, status: (await send(app, 'GET', target)).status }).toEqual({ target, status: 200 });
      // unmatched targets that still name the token
      for (const target of [`/%64ashboard/setup/${token}/more`, `http://x/dashboard/setup/${token}/more`]) {
        expect({ target, status: (await send(app, 'GET', target)).status }).toEqual({ target, status: 404 });
      }
    } finally {
      await app.close();
    }
    const text = lines.join('');
    const completed = lines.filter((line) => line.includes('"msg":"request completed"'));
    expect(completed).toHaveLength(6);
    expect(completed.filter((line) => line.includes('"url":"/dashboard/setup/:token"'))).toHaveLength(4);
    expect(text).not.toMatch(/dashboard\/setup\/(?!:token)/);
    expect(text).not.toMatch(/%64ashboard|%73etup/);
    expect(token.length).toBeGreaterThan(10);
    expect(text.includes(token)).toBe(false);
  });
});
