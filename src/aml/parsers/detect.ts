// Recognises list files by their content (never by their name), groups OFAC companion files with their main
// file, and parses a recognised list. Used for KYX_LISTS_DIR scans and for files fetched from publishers.

import type { Stats } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { ofacRole, parseOfac, type OfacRole } from './ofac.ts';
import { parseUnXml } from './un.ts';
import { isEuCsvHeader, parseEuCsv, parseEuXml } from './eu.ts';
import { isUkCsv, parseUkCsv } from './uk.ts';
import { isDplHeader, parseBisDpl } from './dpl.ts';
import { looksLikeFtm, parseFtm } from './ftm.ts';
import type { ListFormat, ParsedList } from '../model.ts';

export type FileKind = { format: Exclude<ListFormat, 'ofac_csv'> } | { format: 'ofac_csv'; role: OfacRole };

/** What a file is, from its first bytes; undefined when it is not a list format kyx reads. */
export function detectFileKind(head: string): FileKind | undefined {
  const text = head.replace(/^\ufeff/, '').trimStart();
  if (text.startsWith('<')) {
    if (/<CONSOLIDATED_LIST[\s>]/.test(text)) return { format: 'un_xml' };
    if (/<(?:\w+:)?export[\s>]/.test(text) && /sanctionEntity|fsd\/export/.test(text)) return { format: 'eu_xml' };
    return undefined;
  }
  const firstLine = text.split(/\r?\n/)[0];
  if (firstLine.startsWith('{')) return looksLikeFtm(firstLine) ? { format: 'ftm_json' } : undefined;
  if (isDplHeader(firstLine)) return { format: 'bis_dpl_tsv' };
  if (isEuCsvHeader(firstLine)) return { format: 'eu_csv' };
  if (isUkCsv(text)) return { format: 'uk_csv' };
  const role = ofacRole(text);
  return role ? { format: 'ofac_csv', role } : undefined;
}

/** One list to load: its name, format and files (OFAC lists may have up to four). */
export interface ListFileSet {
  name: string;
  format: ListFormat;
  files: Partial<Record<OfacRole, string>> & { main: string };
}

const HEAD_BYTES = 64 * 1024;

async function readHead(path: string): Promise<string> {
  const { open } = await import('node:fs/promises');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** A file of a scanned folder that is not loaded, and why. */
export interface SkippedFile {
  /** Relative to the scanned folder. */
  file: string;
  reason: string;
}

interface FolderWalk {
  root: string;
  realRoot: string;
  /** Real paths of the folders and files already read: a link loop or a second path to one file reads nothing twice. */
  seen: Map<string, string>;
  files: string[];
  skipped: SkippedFile[];
}

function inside(realRoot: string, realPath: string): boolean {
  return realPath === realRoot || realPath.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/**
 * Every file under `dir`, in name order. Symbolic links are followed (Kubernetes ConfigMap and Secret volumes
 * mount every file as one) as long as their target stays inside the scanned folder's own tree; entries whose name
 * starts with a dot are not read (ConfigMaps keep their real files in `..data`, reached through those links).
 */
async function walk(dir: string, realDir: string, state: FolderWalk): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const skip = (reason: string) => state.skipped.push({ file: relative(state.root, path), reason });
    let real: string;
    let info: Stats;
    try {
      real = await realpath(path);
      info = await stat(real);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      skip(code === 'ELOOP' ? 'symbolic link loop' : code === 'ENOENT' ? 'symbolic link to a missing file' : `unreadable (${code ?? (error as Error).message})`);
      continue;
    }
    if (!inside(state.realRoot, real)) {
      skip('symbolic link to a file outside the lists folder');
      continue;
    }
    const first = state.seen.get(real);
    if (first !== undefined) {
      skip(inside(real, realDir) ? 'symbolic link loop' : `same file or folder as ${first}`);
      continue;
    }
    state.seen.set(real, relative(state.root, path));
    if (info.isDirectory()) {
      await walk(path, real, state).catch((error: NodeJS.ErrnoException) => skip(`unreadable folder (${error.code ?? error.message})`));
    } else if (info.isFile()) {
      state.files.push(path);
    } else {
      skip('not a regular file');
    }
  }
}

async function listFiles(root: string): Promise<{ files: string[]; skipped: SkippedFile[] }> {
  const realRoot = await realpath(root);
  const state: FolderWalk = { root, realRoot, seen: new Map([[realRoot, '.']]), files: [], skipped: [] };
  await walk(root, realRoot, state);
  return state;
}

function listNameFor(root: string, file: string): string {
  const dir = dirname(file);
  const base = dir !== root ? basename(dir) : basename(file, extname(file));
  return base.toLowerCase().replace(/[^a-z0-9_-]+/g, '_');
}

export interface ScanResult {
  lists: ListFileSet[];
  /** Files that are not loaded (not a recognised list format, a link leading outside the folder…), with why. */
  skipped: SkippedFile[];
}

/** Scans a folder (recursively, following symbolic links that stay inside it) for list files recognised by content. */
export async function scanListsDir(root: string): Promise<ScanResult> {
  const lists: ListFileSet[] = [];
  const { files, skipped } = await listFiles(root);
  const skip = (file: string, reason: string) => skipped.push({ file: relative(root, file), reason });
  const ofacByDir = new Map<string, Partial<Record<OfacRole, string>>>();
  for (const file of files) {
    if ((await stat(file)).size === 0) {
      skip(file, 'empty file');
      continue;
    }
    const kind = detectFileKind(await readHead(file));
    if (!kind) {
      skip(file, 'not a list format kyx reads');
    } else if (kind.format === 'ofac_csv') {
      const group = ofacByDir.get(dirname(file)) ?? {};
      if (kind.role === 'main' && group.main) {
        lists.push({ name: listNameFor(root, file), format: 'ofac_csv', files: { main: file } });
      } else {
        group[kind.role] = file;
      }
      ofacByDir.set(dirname(file), group);
    } else {
      lists.push({ name: listNameFor(root, file), format: kind.format, files: { main: file } });
    }
  }
  for (const group of ofacByDir.values()) {
    const { main, ...companions } = group;
    if (main) {
      lists.push({ name: listNameFor(root, main), format: 'ofac_csv', files: { main, ...companions } });
    } else {
      for (const file of Object.values(companions)) skip(file as string, 'an OFAC ALT/ADD/COMMENTS file without its SDN file in the same folder');
    }
  }
  const seen = new Map<string, number>();
  for (const list of lists) {
    const count = seen.get(list.name) ?? 0;
    seen.set(list.name, count + 1);
    if (count > 0) list.name = `${list.name}_${count + 1}`;
  }
  skipped.sort((a, b) => a.file.localeCompare(b.file));
  return { lists: lists.sort((a, b) => a.name.localeCompare(b.name)), skipped };
}

/** Parses a list's files. Throws with a message naming what is wrong when a file does not parse. */
export async function parseListFileSet(set: ListFileSet): Promise<ParsedList> {
  const read = (path: string | undefined) => (path ? readFile(path, 'utf8') : Promise.resolve(undefined));
  const main = (await read(set.files.main)) as string;
  const parsed = parseListText(set.format, set.name, main, {
    alt: await read(set.files.alt),
    add: await read(set.files.add),
    comments: await read(set.files.comments),
  });
  if (parsed.entities.length === 0) throw new Error(`${set.format} file ${basename(set.files.main)} holds no entity`);
  return parsed;
}

export function parseListText(
  format: ListFormat,
  name: string,
  main: string,
  companions: { alt?: string; add?: string; comments?: string } = {},
): ParsedList {
  switch (format) {
    case 'ofac_csv': return parseOfac({ main, ...companions }, name);
    case 'un_xml': return parseUnXml(main, name);
    case 'eu_xml': return parseEuXml(main, name);
    case 'eu_csv': return parseEuCsv(main, name);
    case 'uk_csv': return parseUkCsv(main, name);
    case 'bis_dpl_tsv': return parseBisDpl(main, name);
    case 'ftm_json': return parseFtm(main, name);
  }
}
