import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { childServerEnv, startKyx } from '../helpers/cli.ts';

const { env, port, cleanup } = childServerEnv('serve');

afterAll(cleanup);

describe('kyx serve', () => {
  it('first start creates and prints the demo account and keys; the next start does not; SIGTERM exits cleanly', async () => {
    const first = startKyx(env);
    const output = await first.ready;
    const testKey = /test key\s+(svc_test_sk_\S+)/.exec(output)?.[1];
    const liveKey = /live key\s+(svc_live_sk_\S+)/.exec(output)?.[1];
    expect(testKey).toBeDefined();
    expect(liveKey).toBeDefined();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/validate-key`, { headers: { authorization: `Bearer ${liveKey}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ environment: 'live', plan: { id: 'developer_sandbox' } });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    // the demo admin's set-up link is printed with the keys and opens the dashboard's set-up page
    const setupUrl = /dashboard (http:\S+\/dashboard\/setup\/\S+)/.exec(output)?.[1];
    expect(setupUrl).toBeDefined();
    const setupPage = await fetch(`http://127.0.0.1:${port}${new URL(setupUrl!).pathname}`);
    expect(setupPage.status).toBe(200);
    expect(await setupPage.text()).toContain('admin@demo.kyx.localhost');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startKyx(env);
    const again = await second.ready;
    expect(again).not.toContain('demo account created');
    const stillValid = await fetch(`http://127.0.0.1:${port}/api/v1/validate-key`, { headers: { authorization: `Bearer ${testKey}` } });
    // the count of the first run survived the restart
    expect((await stillValid.json()).usage.today).toBe(2);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('closing drains an in-flight request before storage closes', async () => {
    const t = await createTestApp();
    let finished = false;
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const { buildApp } = await import('../../src/app.ts');
    const app = await buildApp(t.context, { logger: false });
    app.get('/slow', async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
      return { ok: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const pending = fetch(`${address}/slow`);
    await inFlight;
    await app.close();
    expect(finished).toBe(true);
    expect((await pending).status).toBe(200);
    await t.close();
  });

  it('/healthz and /readyz', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().checks.map((c: { name: string }) => c.name)).toContain('storage');
      t.context.readiness.push({ name: 'broken', check: async () => Promise.reject(new Error('down')) });
      const notReady = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ status: 'not_ready', code: 'not_ready' });
    } finally {
      await t.close();
    }
  });
});
