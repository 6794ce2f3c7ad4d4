import type { DomainModule } from '../core.ts';
import { kybCheckKind } from './kind.ts';
import { kybMigrations } from './migrations.ts';
import { kybRoutes } from './routes.ts';
import { createSandboxSources } from './sandbox.ts';
import { type KybService, createKybService, kybScreenFunction } from './service.ts';
import { createLiveSources } from './sources/live.ts';
import { monitorNamesOf } from '../aml/embedded.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    kyb: KybService;
  }
}

export const kybModule: DomainModule<KybService, 'aml'> = {
  name: 'kyb',
  requires: ['aml'],
  migrations: kybMigrations,
  checkKinds: [kybCheckKind],
  async setup(platform, { aml }) {
    return createKybService({
      checks: platform.checks,
      sandboxSources: createSandboxSources(),
      liveSources: createLiveSources(platform.config.kyb.sources),
      screen: kybScreenFunction(aml),
      monitorNames: monitorNamesOf(aml),
      budgetMs: platform.config.kyb.budgetMs,
    });
  },
  routes: kybRoutes,
};
