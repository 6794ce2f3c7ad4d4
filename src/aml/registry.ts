// The lists kyx screens against: where each comes from (KYX_LISTS_DIR, a local path or a publisher URL), its
// last good version (in memory and on disk under the data dir), its errors, and the snapshot screening reads.
// Parsing runs in a worker thread; the index is rebuilt off the request path and swapped in one assignment.

import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { fetchListFile, type Validators } from './fetch.ts';
import type { ParseReply } from './parse-worker.ts';
import { buildIndex } from './matching.ts';
import { detectFileKind, parseListFileSet, scanListsDir, type ListFileSet, type SkippedFile } from './parsers/detect.ts';
import type { ListEntity, ListFormat, ParsedList } from './model.ts';
import { warmUp, type ListsSnapshot, type ListVersion, type SnapshotProvider } from './screen.ts';
import { startWorkerThread } from '../workers.ts';

export interface ListSource {
  /** Name the list is reported under. */
  name: string;
  /** Publisher URL(s); several for the OFAC CSV family (SDN.CSV, ALT.CSV, ADD.CSV, SDN_COMMENTS.CSV). */
  url?: string | string[];
  /** A local file or folder holding this list's file(s). */
  path?: string;
  maxBytes?: number;
  timeoutMs?: number;
}

export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface ListRegistryOptions {
  /** KYX_LISTS_DIR: every file in it whose format is recognised (by content) is a list. */
  listsDir?: string;
  sources?: ListSource[];
  /** Where the last good version of each list is kept (`<dataDir>/lists/<name>/good`). */
  dataDir: string;
  /** Refresh schedule; none when absent or 0. */
  refreshIntervalMs?: number;
  logger?: Logger;
  /** Parse in a worker thread (default true); false parses on the calling thread. */
  parseInWorker?: boolean;
}

export interface ListStatus {
  name: string;
  /** `dir:<path>`, `file:<path>` or the publisher URL(s) */
  source: string;
  format: ListFormat | null;
  versionDate: string | null;
  entityCount: number;
  sha256: string | null;
  loadedAt: string | null;
  lastCheckedAt: string | null;
  /** Why the latest refresh of this list failed; the last good version keeps serving meanwhile. */
  lastError: string | null;
}

interface LoadedList {
  format: ListFormat;
  versionDate: string | null;
  sha256: string;
  entities: ListEntity[];
  loadedAt: string;
}

interface ListState {
  name: string;
  source: string;
  fromListsDir: boolean;
  /** The list's main file when it comes from the lists dir: while it exists the list is kept, even broken. */
  mainFile?: string;
  loaded?: LoadedList;
  lastError: string | null;
  lastCheckedAt: string | null;
}

interface GoodMeta {
  /** Main file a local list was read from, so a restart can tell a broken file from a removed one. */
  origin?: string;
  sha256: string;
  versionDate: string | null;
  validators: Record<string, Validators>;
}

const ROLE_ORDER = ['main', 'alt', 'add', 'comments'] as const;

async function hashFiles(set: ListFileSet): Promise<string> {
  const hash = createHash('sha256');
  for (const role of ROLE_ORDER) {
    const file = set.files[role];
    if (!file) continue;
    hash.update(`${role}\0`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

async function newestModification(set: ListFileSet): Promise<string> {
  let newest = 0;
  for (const file of Object.values(set.files)) if (file) newest = Math.max(newest, (await stat(file)).mtimeMs);
  return new Date(newest).toISOString();
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Parses list files in a worker thread, one list at a time; falls back to this thread if no worker starts. */
class Parser {
  private worker: Worker | undefined;
  private workerFailed = false;

  constructor(private readonly inWorker: boolean) {}

  async parse(set: ListFileSet): Promise<ParsedList> {
    if (!this.inWorker || this.workerFailed) return parseListFileSet(set);
    try {
      this.worker ??= startWorkerThread(new URL('./parse-worker.ts', import.meta.url));
    } catch {
      this.workerFailed = true;
      return parseListFileSet(set);
    }
    const worker = this.worker;
    return new Promise<ParsedList>((resolve, reject) => {
      const entities: ListEntity[] = [];
      const finish = () => {
        worker.off('message', onReply);
        worker.off('error', onError);
      };
      const onReply = (reply: ParseReply) => {
        if (reply.type === 'entities') {
          for (const entity of reply.entities) entities.push(entity);
          return;
        }
        finish();
        if (reply.type === 'failed') reject(new Error(reply.error));
        else resolve({ ...reply.list, entities });
      };
      const onError = (error: Error) => {
        finish();
        reject(error);
      };
      worker.on('message', onReply);
      worker.on('error', onError);
      worker.postMessage(set);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

export class ListRegistry implements SnapshotProvider {
  private readonly states = new Map<string, ListState>();
  private current: ListsSnapshot | null = null;
  private running: Promise<ListStatus[]> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listsRoot: string;
  private adopted = false;
  private skipped: SkippedFile[] = [];
  private readonly swapListeners: Array<(previous: ListsSnapshot | null, next: ListsSnapshot) => void> = [];

  constructor(private readonly options: ListRegistryOptions) {
    this.listsRoot = join(options.dataDir, 'lists');
  }

  /** First load (lists dir, local sources, last good copies of remote lists, then publishers), then the schedule. */
  async load(): Promise<ListStatus[]> {
    const status = await this.refresh();
    const interval = this.options.refreshIntervalMs;
    if (interval && interval > 0 && !this.timer) {
      this.timer = setInterval(() => {
        this.refresh().catch((error: Error) => this.options.logger?.warn({ error: error.message }, 'AML list refresh failed'));
      }, interval);
      this.timer.unref();
    }
    return status;
  }

  /** Re-reads every source; concurrent calls share one run. */
  refresh(): Promise<ListStatus[]> {
    this.running ??= this.refreshAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Called after a new set of list versions is swapped in, with the one it replaced. */
  onSwap(listener: (previous: ListsSnapshot | null, next: ListsSnapshot) => void): void {
    this.swapListeners.push(listener);
  }

  snapshot(): ListsSnapshot | null {
    return this.current;
  }

  isReady(): boolean {
    return this.current !== null && this.current.index.entities.length > 0;
  }

  versions(): { listsVersion: string | null; lists: ListVersion[] } {
    return { listsVersion: this.current?.listsVersion ?? null, lists: this.current?.lists ?? [] };
  }

  status(): ListStatus[] {
    return [...this.states.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => ({
        name: s.name,
        source: s.source,
        format: s.loaded?.format ?? null,
        versionDate: s.loaded?.versionDate ?? null,
        entityCount: s.loaded?.entities.length ?? 0,
        sha256: s.loaded?.sha256 ?? null,
        loadedAt: s.loaded?.loadedAt ?? null,
        lastCheckedAt: s.lastCheckedAt,
        lastError: s.lastError,
      }));
  }

  /** Files of KYX_LISTS_DIR the latest scan did not load, with why (`.` when the folder itself is unreadable). */
  skippedFiles(): SkippedFile[] {
    return this.skipped;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private state(name: string, source: string, fromListsDir: boolean): ListState {
    let state = this.states.get(name);
    if (!state) {
      state = { name, source, fromListsDir, lastError: null, lastCheckedAt: null };
      this.states.set(name, state);
    }
    state.source = source;
    return state;
  }

  private async refreshAll(): Promise<ListStatus[]> {
    const parser = new Parser(this.options.parseInWorker ?? true);
    let changed = false;
    try {
      const local = await this.localSets();
      for (const { set, source, fromListsDir } of local) {
        const state = this.state(set.name, source, fromListsDir);
        state.mainFile = set.files.main;
        changed = (await this.refreshLocal(parser, set, state)) || changed;
      }
      const present = new Set(local.map((l) => l.set.name));
      if (!this.adopted) changed = (await this.adoptKeptLocalLists(present)) || changed;
      for (const state of [...this.states.values()]) {
        if (!state.fromListsDir || present.has(state.name)) continue;
        if (state.mainFile && (await exists(state.mainFile))) {
          // Still there but no longer recognised (truncated, replaced by an error page…): a broken list.
          state.lastError = `${basename(state.mainFile)} is no longer a recognised list file`;
          state.lastCheckedAt = new Date().toISOString();
          this.options.logger?.warn({ list: state.name }, 'AML list file unrecognised; last good version kept');
        } else {
          this.states.delete(state.name);
          changed = true;
        }
      }
      for (const source of this.options.sources ?? []) {
        if (!source.url) continue;
        const urls = Array.isArray(source.url) ? source.url : [source.url];
        changed = (await this.refreshRemote(parser, source, urls, this.state(source.name, urls.join(' '), false))) || changed;
      }
    } finally {
      await parser.close();
    }
    if (changed || (this.current === null && [...this.states.values()].some((s) => s.loaded))) this.rebuild();
    return this.status();
  }

  /**
   * At the first refresh of a process: a list kept on disk whose file is still in the lists dir but no longer
   * recognised is restored from the kept copy (the broken file is reported by the next step).
   */
  private async adoptKeptLocalLists(present: Set<string>): Promise<boolean> {
    this.adopted = true;
    const { listsDir } = this.options;
    if (!listsDir) return false;
    let changed = false;
    const names = await readdir(this.listsRoot).catch(() => [] as string[]);
    for (const name of names) {
      const meta = await readMeta(join(this.listsRoot, name, 'good'));
      if (!meta?.origin || present.has(name) || this.states.has(name)) continue;
      if (!meta.origin.startsWith(listsDir) || !(await exists(meta.origin))) continue;
      const state = this.state(name, `dir:${listsDir}`, true);
      state.mainFile = meta.origin;
      changed = (await this.restoreGood(state)) || changed;
    }
    return changed;
  }

  private async localSets(): Promise<Array<{ set: ListFileSet; source: string; fromListsDir: boolean }>> {
    const found: Array<{ set: ListFileSet; source: string; fromListsDir: boolean }> = [];
    const { listsDir } = this.options;
    if (listsDir) {
      let skipped: SkippedFile[];
      try {
        const scan = await scanListsDir(listsDir);
        for (const set of scan.lists) found.push({ set, source: `dir:${listsDir}`, fromListsDir: true });
        skipped = scan.skipped;
      } catch (error) {
        skipped = [{ file: '.', reason: `the lists folder cannot be read: ${(error as Error).message}` }];
      }
      this.reportSkipped(listsDir, skipped);
    }
    for (const source of this.options.sources ?? []) {
      if (!source.path || source.url) continue;
      const isDir = (await stat(source.path).catch(() => undefined))?.isDirectory();
      const scanned = isDir ? (await scanListsDir(source.path)).lists : await this.singleFileSets(source.path);
      const state = this.state(source.name, `${isDir ? 'dir' : 'file'}:${source.path}`, false);
      if (scanned.length !== 1) {
        state.lastError = `expected one recognised list at ${source.path}, found ${scanned.length}`;
        state.lastCheckedAt = new Date().toISOString();
        if (!state.loaded) await this.restoreGood(state);
        continue;
      }
      found.push({ set: { ...scanned[0], name: source.name }, source: state.source, fromListsDir: false });
    }
    return found;
  }

  /** Logs each skipped file once, when the set of skipped files changes (not at every refresh). */
  private reportSkipped(listsDir: string, skipped: SkippedFile[]): void {
    const key = (files: SkippedFile[]) => JSON.stringify(files);
    if (key(skipped) === key(this.skipped)) return;
    this.skipped = skipped;
    for (const { file, reason } of skipped) this.options.logger?.warn({ listsDir, file, reason }, 'AML lists dir: file not loaded');
  }

  private async singleFileSets(path: string): Promise<ListFileSet[]> {
    const head = await readFile(path, 'utf8').catch(() => undefined);
    const kind = head === undefined ? undefined : detectFileKind(head.slice(0, 65536));
    return kind ? [{ name: basename(path), format: kind.format, files: { main: path } }] : [];
  }

  /** Loads a local list when its content changed; a list that fails keeps its last good version. */
  private async refreshLocal(parser: Parser, set: ListFileSet, state: ListState): Promise<boolean> {
    state.lastCheckedAt = new Date().toISOString();
    try {
      const sha256 = await hashFiles(set);
      if (state.loaded?.sha256 === sha256) {
        state.lastError = null;
        return false;
      }
      const parsed = await parser.parse(set);
      const versionDate = parsed.publishedAt ?? (await newestModification(set));
      state.loaded = { format: parsed.format, versionDate, sha256, entities: parsed.entities, loadedAt: new Date().toISOString() };
      state.lastError = null;
      await this.keepGood(state.name, Object.values(set.files) as string[], { origin: set.files.main, sha256, versionDate, validators: {} });
      this.options.logger?.info({ list: state.name, entities: parsed.entities.length }, 'AML list loaded');
      return true;
    } catch (error) {
      return this.fail(state, error as Error);
    }
  }

  private async refreshRemote(parser: Parser, source: ListSource, urls: string[], state: ListState): Promise<boolean> {
    state.lastCheckedAt = new Date().toISOString();
    const listDir = join(this.listsRoot, safeName(source.name));
    const goodDir = join(listDir, 'good');
    const meta = await readMeta(goodDir);
    let changed = false;
    if (!state.loaded && meta) changed = await this.restoreGood(state);
    await mkdir(listDir, { recursive: true });
    const staging = await mkdtemp(join(listDir, 'staging-'));
    try {
      const validators: Record<string, Validators> = {};
      let anyDownloaded = false;
      for (const [i, url] of urls.entries()) {
        const fileName = `${i}-${safeName(basename(new URL(url).pathname) || 'list')}`;
        const target = join(staging, fileName);
        const goodCopy = join(goodDir, fileName);
        const haveGood = state.loaded !== undefined && (await exists(goodCopy));
        const outcome = await fetchListFile(url, target, {
          maxBytes: source.maxBytes,
          timeoutMs: source.timeoutMs,
          previous: haveGood ? meta?.validators[url] : undefined,
        });
        if (outcome.status === 'not_modified') {
          await copyFile(goodCopy, target);
          validators[url] = meta?.validators[url] ?? {};
        } else {
          anyDownloaded = true;
          validators[url] = outcome.validators;
        }
      }
      if (!anyDownloaded) {
        state.lastError = null;
        return changed;
      }
      const sets = (await scanListsDir(staging)).lists;
      if (sets.length !== 1) throw new Error(`downloaded files hold ${sets.length} recognised lists, expected 1`);
      const set = { ...sets[0], name: source.name };
      const sha256 = await hashFiles(set);
      const lastModified = Object.values(validators).map((v) => v.lastModified).find(Boolean);
      if (state.loaded?.sha256 === sha256) {
        await writeMeta(goodDir, { sha256, versionDate: state.loaded.versionDate, validators });
        state.lastError = null;
        return changed;
      }
      const parsed = await parser.parse(set);
      const versionDate = parsed.publishedAt ?? (lastModified ? new Date(lastModified).toISOString() : new Date().toISOString());
      state.loaded = { format: parsed.format, versionDate, sha256, entities: parsed.entities, loadedAt: new Date().toISOString() };
      state.lastError = null;
      await this.keepGood(source.name, Object.values(set.files) as string[], { sha256, versionDate, validators });
      this.options.logger?.info({ list: source.name, entities: parsed.entities.length }, 'AML list fetched');
      return true;
    } catch (error) {
      return this.fail(state, error as Error) || changed;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Records the error; with nothing in memory, the copy on disk (last good version) is restored. */
  private async fail(state: ListState, error: Error): Promise<boolean> {
    state.lastError = error.message;
    this.options.logger?.warn({ list: state.name, error: error.message }, 'AML list refresh failed; last good version kept');
    return state.loaded ? false : this.restoreGood(state);
  }

  private async restoreGood(state: ListState): Promise<boolean> {
    const goodDir = join(this.listsRoot, safeName(state.name), 'good');
    const meta = await readMeta(goodDir);
    if (!meta) return false;
    try {
      const sets = (await scanListsDir(goodDir)).lists;
      if (sets.length !== 1) return false;
      const parsed = await parseListFileSet({ ...sets[0], name: state.name });
      state.loaded = { format: parsed.format, versionDate: meta.versionDate, sha256: meta.sha256, entities: parsed.entities, loadedAt: new Date().toISOString() };
      return true;
    } catch {
      return false;
    }
  }

  /** Copies a list's files to `<dataDir>/lists/<name>/good`, replacing the previous copy by directory rename. */
  private async keepGood(name: string, files: string[], meta: GoodMeta): Promise<void> {
    const listDir = join(this.listsRoot, safeName(name));
    const goodDir = join(listDir, 'good');
    if ((await readMeta(goodDir))?.sha256 === meta.sha256) {
      await writeMeta(goodDir, meta);
      return;
    }
    await mkdir(listDir, { recursive: true });
    const staging = await mkdtemp(join(listDir, 'next-'));
    for (const file of files) await copyFile(file, join(staging, basename(file)));
    await writeMeta(staging, meta);
    const previous = join(listDir, `old-${Date.now()}`);
    if (await exists(goodDir)) await rename(goodDir, previous);
    await rename(staging, goodDir);
    await rm(previous, { recursive: true, force: true });
  }

  private rebuild(): void {
    const loaded = [...this.states.values()].filter((s) => s.loaded).sort((a, b) => a.name.localeCompare(b.name));
    if (loaded.length === 0) {
      this.current = null;
      return;
    }
    const entities = loaded.flatMap((s) => s.loaded!.entities);
    const lists: ListVersion[] = loaded.map((s) => ({
      name: s.name,
      versionDate: s.loaded!.versionDate,
      sha256: s.loaded!.sha256,
      entityCount: s.loaded!.entities.length,
    }));
    const next = { index: buildIndex(entities), lists, listsVersion: listsVersionOf(lists) };
    warmUp(next);
    const previous = this.current;
    this.current = next;
    if (previous?.listsVersion !== next.listsVersion) for (const listener of this.swapListeners) listener(previous, next);
  }
}

/** One identifier for a set of list versions: stored with every screening. */
export function listsVersionOf(lists: ListVersion[]): string {
  const hash = createHash('sha256');
  for (const list of lists) hash.update(`${list.name}\0${list.sha256}\n`);
  return `lv_${hash.digest('hex').slice(0, 16)}`;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^\.+/, '_');
}

async function readMeta(dir: string): Promise<GoodMeta | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as GoodMeta;
  } catch {
    return undefined;
  }
}

async function writeMeta(dir: string, meta: GoodMeta): Promise<void> {
  await writeFile(join(dir, 'meta.json.tmp'), JSON.stringify(meta, null, 2));
  await rename(join(dir, 'meta.json.tmp'), join(dir, 'meta.json'));
}

export function createListRegistry(options: ListRegistryOptions): ListRegistry {
  return new ListRegistry(options);
}
