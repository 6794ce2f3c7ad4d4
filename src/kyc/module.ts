import { ConfigError } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { DomainModule } from '../modules.ts';
import { embeddedScreening } from '../aml/embedded.ts';
import { createKycEngine } from './index.ts';
import { kycMigrations } from './migrations.ts';
import { kycRoutes } from './routes.ts';
import { type KycService, createKycService, parseImageKey } from './service.ts';
import './tables.ts';

declare module '../context.ts' {
  interface DomainServices {
    kyc: KycService;
  }
}

type Env = Record<string, string | undefined>;

/** KYX_KYC_WORKERS: analysis workers (~215 MB each, each loads its own OCR and face models); default 1. */
export function kycWorkers(env: Env): number {
  const raw = env.KYX_KYC_WORKERS;
  if (raw === undefined || raw === '') return 1;
  const workers = Number(raw);
  if (!Number.isInteger(workers) || workers < 1 || workers > 16) throw new ConfigError(`KYX_KYC_WORKERS must be an integer 1-16, got "${raw}"`);
  return workers;
}

async function setup(context: AppContext): Promise<void> {
  const { config } = context;
  const workers = kycWorkers(process.env);
  const service = createKycService({
    db: context.storage.db,
    meters: context.meters,
    baseUrl: config.baseUrl,
    // The engine is a worker pool that takes seconds to warm: started on the first verify (or by warmUp), not here.
    startEngine: () => createKycEngine({ workers }),
    screenPerson: async (person) => embeddedScreening(await context.services.aml.screenPerson(person)),
    imageKey: config.keepImages ? parseImageKey(config.imageKey) : undefined,
  });
  context.services.kyc = service;
  context.closers.push(() => service.close());
  context.checkFinders.kyc = (accountId, id) => service.find(accountId, id);
}

export const kycModule: DomainModule = {
  name: 'kyc',
  migrations: kycMigrations,
  setup,
  routes: kycRoutes,
  warmUp: (context) => context.services.kyc.warmUp(),
};
