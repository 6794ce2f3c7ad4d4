import type { DomainModule } from '../modules.ts';
import type { AppContext } from '../context.ts';
import { createLiveSources, kybConfigFromEnv } from './config.ts';
import { kybMigrations } from './migrations.ts';
import { kybRoutes } from './routes.ts';
import { createSandboxSources } from './sandbox.ts';
import { type KybService, createKybService, kybScreenFunction } from './service.ts';
import './tables.ts';

declare module '../context.ts' {
  interface DomainServices {
    kyb: KybService;
  }
}

async function setup(context: AppContext): Promise<void> {
  // Register endpoints and credentials are read from the KYX_* environment (see kybConfigFromEnv).
  const config = kybConfigFromEnv(process.env);
  const service = createKybService({
    db: context.storage.db,
    meters: context.meters,
    baseUrl: context.config.baseUrl,
    sandboxSources: createSandboxSources(),
    liveSources: createLiveSources(config.sources),
    screen: kybScreenFunction(context),
    budgetMs: config.budgetMs,
  });
  context.services.kyb = service;
  context.checkFinders.kyb = (accountId, id) => service.find(accountId, id);
}

export const kybModule: DomainModule = { name: 'kyb', migrations: kybMigrations, setup, routes: kybRoutes };
