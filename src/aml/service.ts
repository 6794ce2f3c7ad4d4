// The AML service behind the HTTP routes, the CLI and KYC/KYB: which lists to load (from the environment),
// the list registry, screening (in-process or stored with its meter), and stored screenings for one tenant.
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { ConfigError, type Config } from '../config.ts';
import type { Meters } from '../accounts/usage.ts';
import type { StoredCheck } from '../modules.ts';
import type { Database } from '../storage/schema.ts';
import { newId } from '../ids.ts';
import { findStoredCheck } from '../storage/checks.ts';
import { type ListRegistry, type ListRegistryOptions, type ListSource, type ListStatus, type Logger, createListRegistry } from './registry.ts';
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
import { detectFileKind, parseListFileSet, scanListsDir, type ListFileSet, type SkippedFile } from './parsers/detect.ts';
import type { ListFormat } from './model.ts';

export { ListsUnavailableError };

type Env = Record<string, string | undefined>;

/** Refresh period when publisher URLs are configured (a conditional GET per list). */
const REMOTE_REFRESH_SECONDS = 3600;
/** Refresh period for local lists only: a re-hash of the files, re-parsed only when they changed. */
const LOCAL_REFRESH_SECONDS = 300;
/** How long a screening waits for the first load of the lists before answering that none is loaded. */
const FIRST_LOAD_WAIT_MS = 10_000;

/** Where `kyx lists import` keeps imported lists: one folder per list, served like a local source. */
export function importedListsDir(dataDir: string): string {
  return join(dataDir, 'lists-imported');
}

function parseSources(raw: string | undefined): ListSource[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('KYX_LIST_SOURCES must be a JSON array of {name, url, maxBytes?, timeoutMs?}');
  }
  if (!Array.isArray(parsed)) throw new ConfigError('KYX_LIST_SOURCES must be a JSON array of {name, url, maxBytes?, timeoutMs?}');
  const names = new Set<string>();
  return parsed.map((item: unknown, i) => {
    const source = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const where = `KYX_LIST_SOURCES[${i}]`;
    if (typeof source.name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(source.name)) {
      throw new ConfigError(`${where}.name must be 1-64 lower-case letters, digits, _ or -`);
    }
    if (names.has(source.name)) throw new ConfigError(`${where}.name "${source.name}" is used twice`);
    names.add(source.name);
    const urls = Array.isArray(source.url) ? source.url : [source.url];
    if (urls.length === 0 || !urls.every((url) => typeof url === 'string' && /^https?:\/\//.test(url))) {
      throw new ConfigError(`${where}.url must be an http(s) URL or an array of them (the OFAC CSV family)`);
    }
    for (const field of ['maxBytes', 'timeoutMs'] as const) {
      const value = source[field];
      if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) <= 0)) throw new ConfigError(`${where}.${field} must be a positive integer`);
    }
    return {
      name: source.name,
      url: urls as string[],
      ...(source.maxBytes !== undefined ? { maxBytes: source.maxBytes as number } : {}),
      ...(source.timeoutMs !== undefined ? { timeoutMs: source.timeoutMs as number } : {}),
    };
  });
}

async function importedSources(dataDir: string): Promise<ListSource[]> {
  const root = importedListsDir(dataDir);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => ({ name: entry.name, path: join(root, entry.name) }));
}

/**
 * The registry options the environment asks for:
 * - KYX_LISTS_DIR: a folder, every recognised list file in it is loaded;
 * - lists imported with `kyx lists import` (under `<KYX_DATA_DIR>/lists-imported`);
 * - KYX_LIST_SOURCES: JSON array of publisher sources `[{"name": "un", "url": "https://…", "maxBytes"?, "timeoutMs"?}]`
 *   (`url` may be an array: OFAC's SDN.CSV, ALT.CSV, ADD.CSV, SDN_COMMENTS.CSV);
 * - KYX_LISTS_REFRESH_SECONDS: how often every source is re-read (0 = never); default 3600 with publisher URLs,
 *   300 with local lists only. Last good versions are kept under `<KYX_DATA_DIR>/lists`.
 */
export async function listRegistryOptions(config: Config, env: Env = process.env, logger?: Logger): Promise<ListRegistryOptions> {
  const remote = parseSources(env.KYX_LIST_SOURCES);
  const sources = [...(await importedSources(config.dataDir)), ...remote];
  const rawRefresh = env.KYX_LISTS_REFRESH_SECONDS;
  let refreshSeconds = remote.length ? REMOTE_REFRESH_SECONDS : LOCAL_REFRESH_SECONDS;
  if (rawRefresh !== undefined && rawRefresh !== '') {
    refreshSeconds = Number(rawRefresh);
    if (!Number.isInteger(refreshSeconds) || refreshSeconds < 0) throw new ConfigError(`KYX_LISTS_REFRESH_SECONDS must be an integer >= 0, got "${rawRefresh}"`);
  }
  return { listsDir: config.listsDir, sources, dataDir: config.dataDir, refreshIntervalMs: refreshSeconds * 1000, logger };
}

export function listsConfigured(options: ListRegistryOptions): boolean {
  return Boolean(options.listsDir) || (options.sources?.length ?? 0) > 0;
}

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
}

/** A list as tenants see it: a local source is `local`, never a path on the server. */
export type PublicListStatus = Omit<ListStatus, 'source'> & { source: string };

export interface AmlCaller {
  accountId: string;
  /** The key's environment: live screenings count in the `amlScreenings` meter, test ones never. */
  keyEnvironment: 'test' | 'live';
}

export interface AmlService {
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
  find(accountId: string, screeningId: string): Promise<StoredCheck | undefined>;
  close(): Promise<void>;
}

export interface AmlServiceOptions {
  db: Kysely<Database>;
  meters: Meters;
  baseUrl: string;
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
  const { db, meters, registry } = options;
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
      const environment = caller.keyEnvironment === 'live' ? 'live' : 'sandbox';
      const now = new Date();
      const records = queries.map((query): AmlScreeningRecord => {
        const result = screen(snapshot, query);
        const screeningId = newId('aml');
        return {
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
          reportUrl: `${options.baseUrl}/reports/RPT-003/${screeningId}.pdf`,
        };
      });
      await db.transaction().execute(async (trx) => {
        for (const record of records) {
          await trx
            .insertInto('aml_screenings')
            .values({
              id: record.screeningId,
              account_id: caller.accountId,
              environment,
              status: record.status,
              lists_version: record.listsVersion,
              created_at: record.screenedAt,
              record: JSON.stringify(record),
            })
            .execute();
          if (environment === 'live') await meters.record(trx, caller.accountId, 'amlScreenings', now);
        }
      });
      return records;
    },

    find: (accountId, screeningId) => findStoredCheck(db, 'aml', accountId, screeningId),

    async close() {
      await registry.close();
    },
  };
}

export async function openListRegistry(config: Config, env: Env = process.env, logger?: Logger): Promise<{ registry: ListRegistry; configured: boolean }> {
  const options = await listRegistryOptions(config, env, logger);
  return { registry: createListRegistry(options), configured: listsConfigured(options) };
}

/** What `kyx lists import` did with one list. */
export interface ImportedList {
  name: string;
  format: ListFormat | null;
  files: string[];
  entityCount: number;
  versionDate: string | null;
  error: string | null;
}

function listNameOf(file: string): string {
  return basename(file, extname(file)).toLowerCase().replace(/[^a-z0-9_-]+/g, '_');
}

const UNRECOGNISED_FILE = 'not a list format kyx reads (an OFAC ALT/ADD/COMMENTS file is imported with the folder holding its SDN file)';

async function fileSetsOf(path: string): Promise<{ sets: ListFileSet[]; skipped: SkippedFile[] }> {
  const info = await stat(path);
  if (info.isDirectory()) {
    const { lists, skipped } = await scanListsDir(path);
    return { sets: lists, skipped: skipped.map(({ file, reason }) => ({ file: join(path, file), reason })) };
  }
  const kind = info.size > 0 ? detectFileKind((await readFile(path, 'utf8')).slice(0, 65536)) : undefined;
  if (!kind || (kind.format === 'ofac_csv' && kind.role !== 'main')) return { sets: [], skipped: [{ file: path, reason: UNRECOGNISED_FILE }] };
  return { sets: [{ name: listNameOf(path), format: kind.format, files: { main: path } }], skipped: [] };
}

/**
 * `kyx lists import`: each path is a list file or a folder of them (recognised by content, OFAC companion files
 * grouped by folder, as in KYX_LISTS_DIR). Every list is parsed first; a list that parses is copied to
 * `<dataDir>/lists-imported/<name>/` (replacing an earlier import of that name in one rename) and is served from
 * the next start of the service, with no network needed. A list that does not parse is reported and not copied.
 */
export async function importLists(dataDir: string, paths: string[], reserved: ReadonlySet<string> = new Set()): Promise<ImportedList[]> {
  const results: ImportedList[] = [];
  const root = importedListsDir(dataDir);
  for (const path of paths) {
    let found: Awaited<ReturnType<typeof fileSetsOf>>;
    try {
      found = await fileSetsOf(path);
    } catch (error) {
      results.push({ name: listNameOf(path), format: null, files: [path], entityCount: 0, versionDate: null, error: (error as Error).message });
      continue;
    }
    for (const { file, reason } of found.skipped) {
      results.push({ name: listNameOf(file), format: null, files: [file], entityCount: 0, versionDate: null, error: reason });
    }
    for (const set of found.sets) {
      const files = Object.values(set.files) as string[];
      const result: ImportedList = { name: set.name, format: set.format, files, entityCount: 0, versionDate: null, error: null };
      results.push(result);
      if (reserved.has(set.name)) {
        result.error = `a list named "${set.name}" already comes from KYX_LISTS_DIR or KYX_LIST_SOURCES; rename the file`;
        continue;
      }
      try {
        const parsed = await parseListFileSet(set);
        result.entityCount = parsed.entities.length;
        result.versionDate = parsed.publishedAt;
        await mkdir(root, { recursive: true });
        const staging = await mkdtemp(join(root, '.staging-'));
        for (const file of files) {
          // The copy keeps the file's modification time: it is the version date of lists that carry none.
          const copy = join(staging, basename(file));
          await copyFile(file, copy);
          const { atime, mtime } = await stat(file);
          await utimes(copy, atime, mtime);
        }
        const target = join(root, set.name);
        const previous = join(root, `.old-${set.name}-${Date.now()}`);
        await rename(target, previous).catch(() => undefined);
        await rename(staging, target);
        await rm(previous, { recursive: true, force: true });
      } catch (error) {
        result.error = (error as Error).message;
      }
    }
  }
  return results;
}

/** Names of the lists that KYX_LISTS_DIR and KYX_LIST_SOURCES already provide (an import must not shadow them). */
export async function configuredListNames(config: Config, env: Env = process.env): Promise<Set<string>> {
  const names = new Set(parseSources(env.KYX_LIST_SOURCES).map((source) => source.name));
  if (config.listsDir) {
    const scanned = await scanListsDir(config.listsDir).catch(() => ({ lists: [] as ListFileSet[] }));
    for (const list of scanned.lists) names.add(list.name);
  }
  return names;
}
