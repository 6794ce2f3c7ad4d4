import type { DomainModule } from '../core.ts';
import { type Worker, startPlatformWorker } from '../storage/jobs.ts';
import { reportMigrations } from './migrations.ts';
import { createReportCatalogue, warmUpReports } from './registry.ts';
import { BUNDLE_JOB, createBundleRepository } from './repository.ts';
import { reportRoutes } from './routes.ts';
import { type ReportsService, createReportsService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    reports: ReportsService;
  }
}

export const reportsModule: DomainModule<ReportsService> = {
  name: 'reports',
  migrations: reportMigrations,
  async setup(platform) {
    const { config, storage, checks } = platform;
    let worker: Worker | undefined;
    const service = createReportsService({
      db: storage.db,
      events: platform.events,
      bundles: createBundleRepository(storage.db),
      baseUrl: config.baseUrl,
      checks,
      findCheck: checks.find,
      catalogue: createReportCatalogue(checks.kinds),
      kickWorker: () => worker?.kick(),
    });
    worker = startPlatformWorker(platform, { kinds: [BUNDLE_JOB], leaseMs: config.reports.jobLeaseMs, handle: service.runBundleJob });
    return service;
  },
  warmUp: () => warmUpReports(),
  routes: reportRoutes,
};
