// Where lists come from: the configured folder and publisher sources, lists imported with `kyx lists import`,
// and that import itself (parse first, then copy into the data folder in one rename).
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { Config } from '../config.ts';
import type { ListFormat } from './model.ts';
import { detectFileKind, parseListFileSet, scanListsDir, type ListFileSet, type SkippedFile } from './parsers/detect.ts';
import { type ListRegistry, type ListRegistryOptions, type ListSource, type Logger, createListRegistry } from './registry.ts';

/** Where `kyx lists import` keeps imported lists: one folder per list, served like a local source. */
export function importedListsDir(dataDir: string): string {
  return join(dataDir, 'lists-imported');
}

async function importedSources(dataDir: string): Promise<ListSource[]> {
  const root = importedListsDir(dataDir);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => ({ name: entry.name, path: join(root, entry.name) }));
}

/**
 * The registry options the configuration asks for: KYX_LISTS_DIR, lists imported with `kyx lists import`, and
 * the publisher sources of KYX_LIST_SOURCES, re-read every KYX_LISTS_REFRESH_SECONDS. Last good versions are
 * kept under `<KYX_DATA_DIR>/lists`.
 */
export async function listRegistryOptions(config: Pick<Config, 'dataDir' | 'aml'>, logger?: Logger): Promise<ListRegistryOptions> {
  const sources = [...(await importedSources(config.dataDir)), ...config.aml.sources];
  return { listsDir: config.aml.listsDir, sources, dataDir: config.dataDir, refreshIntervalMs: config.aml.refreshSeconds * 1000, logger };
}

export function listsConfigured(options: ListRegistryOptions): boolean {
  return Boolean(options.listsDir) || (options.sources?.length ?? 0) > 0;
}

export async function openListRegistry(config: Pick<Config, 'dataDir' | 'aml'>, logger?: Logger): Promise<{ registry: ListRegistry; configured: boolean }> {
  const options = await listRegistryOptions(config, logger);
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
export async function configuredListNames(config: Pick<Config, 'aml'>): Promise<Set<string>> {
  const names = new Set(config.aml.sources.map((source) => source.name));
  if (config.aml.listsDir) {
    const scanned = await scanListsDir(config.aml.listsDir).catch(() => ({ lists: [] as ListFileSet[] }));
    for (const list of scanned.lists) names.add(list.name);
  }
  return names;
}
