import type { DomainModule } from '../core.ts';
import { type Worker, startPlatformWorker } from '../storage/jobs.ts';
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
    let worker: Worker | undefined;
    const service = createWorkflowsService({
      db: storage.db,
      repository: createWorkflowRepository(storage.db),
      runStep: createStepRunner(services),
      kickWorker: () => worker?.kick(),
    });
    // KYX_WORKER and its poll interval govern every job worker, bundles' and workflow steps' alike.
    worker = startPlatformWorker(platform, { kinds: [RUN_STEP_JOB], leaseMs: config.workflows.stepLeaseMs, handle: service.runStepJob });
    return service;
  },
  routes: workflowRoutes,
};
