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

export const workflowsModule: DomainModule<WorkflowsService, 'aml' | 'kyc' | 'kyb' | 'kya' | 'reviews' | 'reports'> = {
  name: 'workflows',
  requires: ['aml', 'kyc', 'kyb', 'kya', 'reviews', 'reports'],
  migrations: workflowMigrations,
  async setup(platform, services) {
    const { config, storage } = platform;
    let worker: Worker | undefined;
    const service = createWorkflowsService({
      db: storage.db,
      repository: createWorkflowRepository(storage.db),
      runStep: createStepRunner(services, platform.checks),
      events: platform.events,
      kickWorker: () => worker?.kick(),
    });
    // A manual_review step waits for a person; the decision's transaction puts its run back on the queue.
    services.reviews.onDecided((trx, decided) => service.resumeAfterDecision(trx, decided));
    // An RPT-016 bundle may be registered for a run: it holds the report of every check of the run.
    services.reports.registerSubjectSource({ idPrefix: 'wfr', kind: 'workflow_run', label: 'workflow run', load: service.bundleSubject });
    // KYX_WORKER and its poll interval govern every job worker, bundles' and workflow steps' alike.
    worker = startPlatformWorker(platform, { kinds: [RUN_STEP_JOB], leaseMs: config.workflows.stepLeaseMs, handle: service.runStepJob });
    return service;
  },
  routes: workflowRoutes,
};
