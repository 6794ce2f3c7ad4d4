import { pino } from 'pino';
import type { AppContext } from '../context.ts';
import type { DomainModule } from '../modules.ts';
import { amlMigrations } from './migrations.ts';
import { amlRoutes } from './routes.ts';
import { type AmlService, createAmlService, openListRegistry } from './service.ts';
import './tables.ts';

declare module '../context.ts' {
  interface DomainServices {
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

async function setup(context: AppContext): Promise<void> {
  // The list registry logs list names, counts and errors only: never a screened name.
  const logger = pino({ name: 'kyx-aml', level: context.config.logLevel });
  const { registry, configured } = await openListRegistry(context.config, process.env, logger);
  const aml = createAmlService({ db: context.storage.db, meters: context.meters, baseUrl: context.config.baseUrl, registry, configured, logger });
  context.services.aml = aml;
  context.closers.push(() => aml.close());
  context.checkFinders.aml = (accountId, id) => aml.find(accountId, id);
  if (configured) {
    context.readiness.push({
      name: 'aml-lists',
      check: listsReadiness(aml),
      warnings: () => listsWarnings(aml),
    });
  }
}

export const amlModule: DomainModule = { name: 'aml', migrations: amlMigrations, setup, routes: amlRoutes };
