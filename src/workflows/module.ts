import type { DomainModule } from '../core.ts';
import { startWorker } from '../storage/jobs.ts';
import { workflowMigrations } from './migrations.ts';
import { createWorkflowRepository } from './repository.ts';
import { workflowRoutes } from './routes.ts';
import { RUN_STEP_JOB, type WorkflowsService, createWorkflowsService } from './service.ts';
import { createStepRunner } from './steps.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    workflows: WorkflowsService;
  }
}

export const workflowsModule: DomainModule<WorkflowsService, 'aml' | 'kyc' | 'kyb' | 'kya'> = {
  name: 'workflows',
  requires: ['aml', 'kyc', 'kyb', 'kya'],
  migrations: workflowMigrations,
  async setup(platform, services) {
    const { config, storage } = platform;
    let kick = () => {};
    const service = createWorkflowsService({
      db: storage.db,
      repository: createWorkflowRepository(storage.db),
      runStep: createStepRunner(services),
      kickWorker: () => kick(),
    });
    // The job worker setting (KYX_WORKER, its poll interval) is the one the bundle worker follows.
    if (config.reports.runWorker) {
      const worker = startWorker({
        storage,
        kinds: [RUN_STEP_JOB],
        leaseMs: config.workflows.stepLeaseMs,
        pollMs: config.reports.workerPollMs,
        handle: service.runStepJob,
      });
      kick = worker.kick;
      platform.closers.push(() => worker.stop());
    }
    return service;
  },
  routes: workflowRoutes,
};
