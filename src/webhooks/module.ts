import { Gauge } from 'prom-client';
import { pino } from 'pino';
import type { DomainModule, Platform } from '../core.ts';
import { type Worker, startPlatformWorker } from '../storage/jobs.ts';
import { webhookMigrations } from './migrations.ts';
import { createWebhookRepository } from './repository.ts';
import { webhookRoutes } from './routes.ts';
import { DELIVER_JOB, DISPATCH_BATCH, type WebhooksService, createWebhooksService } from './service.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    webhooks: WebhooksService;
  }
}

/**
 * Sweeps the outbox as often as job workers poll (KYX_WORKER_POLL_MS), batch after batch while batches come full;
 * off where KYX_WORKER is off, like every worker.
 */
function startDispatcher(platform: Platform, service: WebhooksService, log: (error: unknown) => void): void {
  const { config } = platform;
  if (!config.reports.runWorker) return;
  let running: Promise<void> | null = null;
  let stopped = false;
  const sweep = () => {
    if (running || stopped) return;
    running = (async () => {
      while (!stopped && (await service.dispatchBatch()) === DISPATCH_BATCH);
    })()
      .catch(log)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(sweep, config.reports.workerPollMs);
  timer.unref();
  platform.closers.push(async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  });
}

export const webhooksModule: DomainModule<WebhooksService> = {
  name: 'webhooks',
  migrations: webhookMigrations,
  async setup(platform) {
    const { config, storage } = platform;
    let worker: Worker | undefined;
    const service = createWebhooksService({
      db: storage.db,
      dialect: storage.dialect,
      repository: createWebhookRepository(storage.db),
      config: config.webhooks,
      events: platform.events,
      kickWorker: () => worker?.kick(),
    });
    worker = startPlatformWorker(platform, { kinds: [DELIVER_JOB], leaseMs: config.webhooks.timeoutMs + 30_000, handle: service.deliverJob });
    // Logs what failed, never an event's data (it can name people).
    const logger = pino({ name: 'kyx-webhooks', level: config.logLevel });
    new Gauge({
      name: 'kyx_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered or given up',
      registers: [platform.metrics],
      async collect() {
        const row = await storage.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<string | number>().as('count')).where('status', '=', 'pending').executeTakeFirstOrThrow();
        this.set(Number(row.count));
      },
    });
    startDispatcher(platform, service, (error) => logger.error({ error: error instanceof Error ? error.message : String(error) }, 'webhook dispatch failed'));
    return service;
  },
  routes: webhookRoutes,
};
