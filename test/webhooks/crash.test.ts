// No event is lost to a kill -9 between the commit of its cause and its delivery: a kyx process commits a check (and
// with it the event and its dispatch job) but dies before any worker delivers it; the next process delivers it,
// exactly once.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { childServerEnv, startKyx } from '../helpers/cli.ts';

const server = childServerEnv('webhook-crash');
const { port } = server;
const env = { ...server.env, KYX_WORKER_POLL_MS: '50' };

afterAll(server.cleanup);

describe('webhooks across a kill -9', () => {
  it('delivers the event of a check committed just before the process was killed, once, after the restart', async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const call = (key: string, url: string, body: object) =>
      fetch(`http://127.0.0.1:${port}${url}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      // this process runs no worker: what it commits stays undelivered until it dies
      const first = startKyx({ ...env, KYX_WORKER: 'off' });
      const testKey = /test key\s+(svc_test_sk_\S+)/.exec(await first.ready)?.[1];
      expect(testKey).toBeDefined();
      const endpoint = await (await call(testKey!, '/api/v1/webhooks', { url: hookUrl, events: ['check.completed'] })).json();
      const verified = await call(testKey!, '/api/v1/kyb/verify', kybSandboxScenarios[0].request);
      expect(verified.status).toBe(200);
      const { kybId } = await verified.json();
      first.child.kill('SIGKILL');
      await first.exited;
      expect(received).toHaveLength(0);

      const second = startKyx(env);
      await second.ready;
      try {
        for (let poll = 0; poll < 600 && received.length === 0; poll++) await new Promise((resolve) => setTimeout(resolve, 50));
        // a little longer, to see that nothing comes twice
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(received).toHaveLength(1);
        const payload = new Webhook(endpoint.secret.slice('whsec_'.length)).verify(received[0].body, received[0].headers);
        expect(payload).toMatchObject({ type: 'check.completed', data: { checkId: kybId } });
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
