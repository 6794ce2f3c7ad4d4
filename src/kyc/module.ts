import { embeddedScreening } from '../aml/embedded.ts';
import { monitorNamesOf } from '../aml/embedded.ts';
import type { DomainModule } from '../core.ts';
import { createKycEngine } from './index.ts';
import { kycCheckKind } from './kind.ts';
import { kycMigrations } from './migrations.ts';
import { createKycRepository } from './repository.ts';
import { kycRoutes } from './routes.ts';
import { type KycService, createKycService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    kyc: KycService;
  }
}

export const kycModule: DomainModule<KycService, 'aml'> = {
  name: 'kyc',
  requires: ['aml'],
  migrations: kycMigrations,
  checkKinds: [kycCheckKind],
  async setup(platform, { aml }) {
    const { workers, imageKey } = platform.config.kyc;
    const service = createKycService({
      checks: platform.checks,
      repository: createKycRepository(platform.storage.db),
      // The engine is a worker pool that takes seconds to warm: started on the first verify (or by warmUp), not here.
      startEngine: () => createKycEngine({ workers }),
      screenPerson: async (person) => embeddedScreening(await aml.screenPerson(person)),
      monitorNames: monitorNamesOf(aml),
      imageKey,
    });
    platform.closers.push(() => service.close());
    return service;
  },
  routes: kycRoutes,
  warmUp: (service) => service.warmUp(),
};
