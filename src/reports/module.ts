import type { DomainModule } from '../modules.ts';
import { startWorker } from './jobs.ts';
import { reportMigrations } from './migrations.ts';
import { reportRoutes } from './routes.ts';
import { runBundleJob } from './service.ts';
import { warmUpReports } from './index.ts';

export interface ReportsService {
  /** Tells the local worker a job is waiting (other instances find it at their next poll). */
  kickWorker(): void;
}

declare module '../context.ts' {
  interface DomainServices {
    reports: ReportsService;
  }
}

export const reportsModule: DomainModule = {
  name: 'reports',
  migrations: reportMigrations,
  async setup(context) {
    if (!context.config.runWorker) {
      context.services.reports = { kickWorker: () => {} };
      return;
    }
    const worker = startWorker({
      storage: context.storage,
      leaseMs: context.config.jobLeaseMs,
      pollMs: context.config.workerPollMs,
      handle: (job, workerId) => runBundleJob(context, job, workerId),
    });
    context.services.reports = { kickWorker: worker.kick };
    context.closers.push(() => worker.stop());
  },
  warmUp: () => warmUpReports(),
  routes: reportRoutes,
};
