import { Gauge, type Registry } from 'prom-client';
import { pino } from 'pino';
import type { DomainModule, Platform } from '../core.ts';
import { amlCheckKind } from './kind.ts';
import { openListRegistry } from './list-sources.ts';
import { amlMigrations } from './migrations.ts';
import { amlRoutes } from './routes.ts';
import { type AmlService, createAmlService } from './service.ts';
import { createMonitoring } from './monitoring.ts';
import './tables.ts';

declare module '../core.ts' {
  interface ModuleServices {
    aml: AmlService;
  }
}

/**
 * Readiness of the lists. With lists configured, the instance is not ready until one is loaded (before that it can
 * only answer 503 lists_unavailable and KYC/KYB would send every name to review). A list that fails to parse while
 * its last good version serves does not make the instance unready: it is reported by GET /api/v1/aml/lists
 * (`lastError`) and by /readyz as a warning, and named in the error once nothing at all can be served.
 */
function listsWarnings(aml: AmlService): string[] {
  return [
    ...aml.status().filter((list) => list.lastError).map((list) => `${list.name}: ${list.lastError}`),
    ...aml.skippedFiles().map(({ file, reason }) => `file ${file} not loaded: ${reason}`),
  ];
}

function listsReadiness(aml: AmlService): () => Promise<void> {
  let firstLoadDone = false;
  void aml.ready().then(() => {
    firstLoadDone = true;
  });
  return async () => {
    if (aml.snapshot()) return;
    if (!firstLoadDone) throw new Error('sanctions lists are loading');
    const failures = listsWarnings(aml);
    throw new Error(`no sanctions list is loaded${failures.length ? ` (${failures.join('; ')})` : ''}`);
  };
}

/** Each list's entities, load time and whether its last refresh failed, as the registry reports them at scrape time. */
function registerListMetrics(registry: Registry, aml: AmlService): void {
  const perList = (name: string, help: string, value: (list: ReturnType<AmlService['status']>[number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['list'],
      registers: [registry],
      collect() {
        this.reset();
        for (const list of aml.status()) {
          const measured = value(list);
          if (measured !== null) this.set({ list: list.name }, measured);
        }
      },
    });
  perList('kyx_aml_list_entities', 'Entities of the list version being served', (list) => list.entityCount);
  perList('kyx_aml_list_loaded_timestamp_seconds', 'When the served version was loaded', (list) => (list.loadedAt ? Date.parse(list.loadedAt) / 1000 : null));
  perList('kyx_aml_list_refresh_failed', '1 when the last refresh of the list failed (its last good version serves)', (list) => (list.lastError ? 1 : 0));
}

async function setup(platform: Platform): Promise<AmlService> {
  // The list registry logs list names, counts and errors only: never a screened name.
  const logger = pino({ name: 'kyx-aml', level: platform.config.logLevel });
  const { registry, configured } = await openListRegistry(platform.config, logger);
  const monitoring = createMonitoring(platform.storage.db, platform.events);
  const aml = createAmlService({ checks: platform.checks, monitoring, registry, configured, logger });
  platform.closers.push(() => aml.close());
  registerListMetrics(platform.metrics, aml);
  // A new set of list versions (the first at start-up included): monitored names not yet screened against it are
  // screened again, off the request path.
  registry.onSwap((previous, next) => {
    const started = Date.now();
    monitoring.rescreenAll(previous, next).then(
      (run) => run && logger.info({ listsVersion: next.listsVersion, ...run, ms: Date.now() - started }, 'monitored names re-screened'),
      (error: Error) => logger.error({ error: error.message, listsVersion: next.listsVersion }, 'monitored names could not be re-screened'),
    );
  });
  if (configured) {
    platform.readiness.push({
      name: 'aml-lists',
      check: listsReadiness(aml),
      warnings: () => listsWarnings(aml),
    });
  }
  return aml;
}

export const amlModule: DomainModule<AmlService> = { name: 'aml', migrations: amlMigrations, checkKinds: [amlCheckKind], setup, routes: amlRoutes };
