// The AML service behind the HTTP routes, the CLI and KYC/KYB: the list registry, screening (in-process, or
// stored with its meter through the check store), and the lists' status.
import type { KeyEnvironment } from '../core.ts';
import { type CheckStore, checkEnvironment } from '../storage/checks.ts';
import { newId } from '../ids.ts';
import type { MonitoringStore } from './monitoring.ts';
import type { SkippedFile } from './parsers/detect.ts';
import type { ListRegistry, ListStatus, Logger } from './registry.ts';
import {
  type ListsSnapshot,
  type PartyToScreen,
  type ScreeningQuery,
  type ScreeningResult,
  ListsUnavailableError,
  screen,
  screenCompany,
  screenPerson,
} from './screen.ts';

/** How long a screening waits for the first load of the lists before answering that none is loaded. */
const FIRST_LOAD_WAIT_MS = 10_000;

/**
 * What KYC and KYB get from an in-process screening: the engine's result, or `unavailable` when no list is
 * loaded (never an exception), which a caller must not treat as clear.
 */
export type InProcessScreening = ScreeningResult | { status: 'unavailable'; matches: []; reason: string };

export type CompanyToScreen = Parameters<typeof screenCompany>[1];

/** A stored screening: the public JSON of POST /api/v1/aml/screen and GET /api/v1/aml/screenings/{id}. */
export interface AmlScreeningRecord extends ScreeningResult {
  screeningId: string;
  /** The query as screened (name normalised, country as its ISO code). */
  query: ScreeningQuery;
  environment: 'sandbox' | 'live';
  screenedAt: string;
  reportUrl: string;
  /** The monitored subject the screening enrolled. */
  monitoringSubjectId?: string;
}

/** A list as tenants see it: a local source is `local`, never a path on the server. */
export type PublicListStatus = Omit<ListStatus, 'source'> & { source: string };

export interface AmlCaller {
  accountId: string;
  /** The key's environment: live screenings count in the `amlScreenings` meter, test ones never. */
  keyEnvironment: KeyEnvironment;
  /** The ids to store the screenings under, one per query, for a caller that must find them again after a crash (a workflow step). */
  checkIds?: readonly string[];
  /** Per query: enrol the name in ongoing monitoring. */
  monitor?: readonly boolean[];
}

export interface AmlService {
  /** Names kept under ongoing monitoring, and their history. */
  readonly monitoring: Pick<MonitoringStore, 'list' | 'find' | 'stop' | 'enrolIfEnabled'>;
  /** True when any list source is configured (a lists dir, imported lists or publisher URLs). */
  readonly configured: boolean;
  /** Resolves once the first load of the configured lists has finished, loaded or not; never rejects. */
  ready(): Promise<void>;
  /** In-process screening for KYC/KYB; waits for the first load (at most FIRST_LOAD_WAIT_MS). */
  screen(query: ScreeningQuery): Promise<InProcessScreening>;
  screenPerson(person: PartyToScreen): Promise<InProcessScreening>;
  screenCompany(company: CompanyToScreen): Promise<InProcessScreening>;
  /** The lists being served right now (null while none is loaded). */
  snapshot(): ListsSnapshot | null;
  status(): ListStatus[];
  /** Files of KYX_LISTS_DIR that are not loaded, with why (operators only: they name server paths). */
  skippedFiles(): SkippedFile[];
  publicStatus(): { listsVersion: string | null; lists: PublicListStatus[] };
  refresh(): Promise<ListStatus[]>;
  /**
   * Screens each query and stores each as its own screening, with the meter of live keys, in one transaction
   * before answering. Throws ListsUnavailableError when no list is loaded (nothing is stored then).
   */
  screenAndStore(caller: AmlCaller, queries: ScreeningQuery[]): Promise<AmlScreeningRecord[]>;
  close(): Promise<void>;
}

export interface AmlServiceOptions {
  checks: CheckStore;
  monitoring: MonitoringStore;
  registry: ListRegistry;
  configured: boolean;
  logger?: Logger;
}

function timeout(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Creates the service and starts the first load of the lists without waiting for it. */
export function createAmlService(options: AmlServiceOptions): AmlService {
  const { checks, registry } = options;
  const firstLoad = registry.load().then(
    () => undefined,
    (error: Error) => options.logger?.warn({ error: error.message }, 'AML lists could not be loaded'),
  );

  async function servingSnapshot(): Promise<ListsSnapshot | null> {
    if (!registry.snapshot() && options.configured) {
      const wait = timeout(FIRST_LOAD_WAIT_MS);
      await Promise.race([firstLoad, wait.promise]);
      wait.cancel();
    }
    return registry.snapshot();
  }

  async function inProcess(run: (snapshot: ListsSnapshot | null) => ScreeningResult): Promise<InProcessScreening> {
    try {
      return run(await servingSnapshot());
    } catch (error) {
      if (error instanceof ListsUnavailableError) return { status: 'unavailable', matches: [], reason: error.message };
      throw error;
    }
  }

  return {
    monitoring: options.monitoring,
    configured: options.configured,
    ready: () => firstLoad,
    screen: (query) => inProcess((snapshot) => screen(snapshot, query)),
    screenPerson: (person) => inProcess((snapshot) => screenPerson(snapshot, person)),
    screenCompany: (company) => inProcess((snapshot) => screenCompany(snapshot, company)),
    snapshot: () => registry.snapshot(),
    status: () => registry.status(),
    skippedFiles: () => registry.skippedFiles(),
    publicStatus() {
      return {
        listsVersion: registry.versions().listsVersion,
        lists: registry.status().map((list) => ({ ...list, source: /^(dir|file):/.test(list.source) ? 'local' : list.source })),
      };
    },
    refresh: () => registry.refresh(),

    async screenAndStore(caller, queries) {
      // One snapshot for the whole call: a batch is screened against one set of list versions.
      const snapshot = await servingSnapshot();
      const environment = checkEnvironment(caller.keyEnvironment);
      const now = new Date();
      const records = queries.map((query, index): AmlScreeningRecord => {
        const result = screen(snapshot, query);
        const screeningId = caller.checkIds?.[index] ?? checks.newId('aml');
        const monitored = caller.monitor?.[index] === true;
        return {
          ...(monitored ? { monitoringSubjectId: newId('mon') } : {}),
          screeningId,
          status: result.status,
          matches: result.matches,
          listsVersion: result.listsVersion,
          lists: result.lists,
          threshold: result.threshold,
          engine: result.engine,
          query,
          environment,
          screenedAt: now.toISOString(),
          reportUrl: checks.reportUrl('aml', screeningId),
        };
      });
      await checks.transaction(async (trx) => {
        for (const record of records) {
          await checks.insert(trx, 'aml', {
            id: record.screeningId,
            accountId: caller.accountId,
            environment,
            createdAt: record.screenedAt,
            record,
            columns: { status: record.status, lists_version: record.listsVersion },
          });
          if (record.monitoringSubjectId) {
            await options.monitoring.enrol(trx, {
              id: record.monitoringSubjectId,
              accountId: caller.accountId,
              environment,
              screeningId: record.screeningId,
              query: record.query,
              matches: record.matches.map((match) => ({ entityId: match.entityId, name: match.name, list: match.lists[0] ?? '', score: match.score })),
              listsVersion: record.listsVersion,
              now,
            });
          }
        }
      });
      return records;
    },

    async close() {
      await registry.close();
    },
  };
}
