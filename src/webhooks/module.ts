import type { DomainModule } from '../core.ts';
import { DISPATCH_EVENT_JOB } from '../events/log.ts';
import { type Worker, startPlatformWorker } from '../storage/jobs.ts';
import { webhookMigrations } from './migrations.ts';
import { createWebhookRepository } from './repository.ts';
import { webhookRoutes } from './routes.ts';
import { DELIVER_JOB, type WebhooksService, createWebhooksService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    webhooks: WebhooksService;
  }
}

export const webhooksModule: DomainModule<WebhooksService> = {
  name: 'webhooks',
  migrations: webhookMigrations,
  async setup(platform) {
    const { config, storage } = platform;
    let worker: Worker | undefined;
    const service = createWebhooksService({
      db: storage.db,
      repository: createWebhookRepository(storage.db),
      config: config.webhooks,
      kickWorker: () => worker?.kick(),
    });
    worker = startPlatformWorker(platform, {
      kinds: [DISPATCH_EVENT_JOB, DELIVER_JOB],
      leaseMs: config.webhooks.timeoutMs + 30_000,
      handle: (job, workerId) => (job.kind === DISPATCH_EVENT_JOB ? service.dispatchJob(job, workerId) : service.deliverJob(job, workerId)),
    });
    return service;
  },
  routes: webhookRoutes,
};
