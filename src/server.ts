import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { closeContext, createContext } from './bootstrap.ts';
import type { AppContext } from './core.ts';
import { seedDemoAccount } from './accounts/demo.ts';
import { MODULES } from './domains.ts';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  stop(): Promise<void>;
}

/** The demo account's first dashboard user, an admin. */
export const DEMO_ADMIN_EMAIL = 'admin@demo.kyx.localhost';

/** Opens everything, seeds the demo account on first start, listens; `stop` drains requests then closes storage. */
export async function startServer(config: Config, print: (line: string) => void = console.log): Promise<RunningServer> {
  const context = await createContext(config);
  const app = await buildApp(context);
  const demo = await seedDemoAccount(context.storage.db);
  const demoAdmin = demo && (await context.services.users.invite(demo.accountId, { email: DEMO_ADMIN_EMAIL, role: 'admin' }));
  const url = await app.listen({ port: config.port, host: config.host });
  if (demo) {
    print('');
    print('kyx demo account created (shown once; keys are stored only as hashes):');
    print(`  account   ${demo.accountId}  (plan developer_sandbox)`);
    print(`  test key  ${demo.testKey}`);
    print(`  live key  ${demo.liveKey}`);
    print(`  dashboard ${demoAdmin!.setupUrl}`);
    print(`            (set a password for ${DEMO_ADMIN_EMAIL} there within 24 hours, then sign in at ${config.baseUrl}/dashboard/login)`);
    print('');
  }
  print(`kyx listening on ${url} (storage: ${context.storage.dialect}${context.redis ? ' + redis' : ''}); API docs at ${config.baseUrl}/docs`);
  const services = context.services as unknown as Record<string, unknown>;
  for (const module of MODULES) {
    module.warmUp?.(services[module.name]).catch((error) => app.log.warn({ err: error, module: module.name }, 'warm-up failed'));
  }
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await app.close();
      await closeContext(context);
    })();
    return stopping;
  };
  return { app, context, url, stop };
}
