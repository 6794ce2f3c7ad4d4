// Recognises list files by their content (never by their name), groups OFAC companion files with their main
// file, and parses a recognised list. Used for KYX_LISTS_DIR scans and for files fetched from publishers.

import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
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

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function listNameFor(root: string, file: string): string {
  const dir = dirname(file);
  const base = dir !== root ? basename(dir) : basename(file, extname(file));
  return base.toLowerCase().replace(/[^a-z0-9_-]+/g, '_');
}

export interface ScanResult {
  lists: ListFileSet[];
  /** Files that are not a recognised list format, relative to the scanned folder. */
  ignored: string[];
}

/** Scans a folder (recursively) for list files recognised by content. */
export async function scanListsDir(root: string): Promise<ScanResult> {
  const lists: ListFileSet[] = [];
  const ignored: string[] = [];
  const ofacByDir = new Map<string, Partial<Record<OfacRole, string>>>();
  for (const file of await listFiles(root)) {
    if ((await stat(file)).size === 0) {
      ignored.push(relative(root, file));
      continue;
    }
    const kind = detectFileKind(await readHead(file));
    if (!kind) {
      ignored.push(relative(root, file));
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
      ignored.push(...Object.values(companions).map((f) => relative(root, f as string)));
    }
  }
  const seen = new Map<string, number>();
  for (const list of lists) {
    const count = seen.get(list.name) ?? 0;
    seen.set(list.name, count + 1);
    if (count > 0) list.name = `${list.name}_${count + 1}`;
  }
  return { lists: lists.sort((a, b) => a.name.localeCompare(b.name)), ignored };
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
