/**
 * Writes data/kya-corpus/real_code.json: excerpts of real source files written by others, taken from the packages
 * of package-lock.json as installed in node_modules: benign code documents for the KYA corpus, and hosts for
 * instructions planted in their comments and for the banks' benign comments (src/kya/training/dataset.ts).
 *   npm ci && node --import tsx scripts/extract-kya-code.ts
 * Deterministic: the same lockfile gives the same file. Only packages whose lockfile licence is permissive (MIT, ISC,
 * BSD, Apache-2.0, 0BSD) are read; each excerpt records its package, version, path and licence. Per package at most
 * one source file (JS/TS, Python, shell, C) with comments and one other (Markdown documentation, JSON, YAML, type
 * declarations), each chosen by a hash of its path; an excerpt is 300–3,000 characters cut at line boundaries.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fnv1a } from '../src/kya/training/hashes.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const OUT = path.join(ROOT, 'data/kya-corpus/real_code.json');

const PERMISSIVE = /^\(?(MIT|ISC|BSD-2-Clause|BSD-3-Clause|Apache-2\.0|0BSD)( OR [\w.-]+)*\)?$/;
const [MIN_CHARS, MAX_CHARS] = [300, 3000];
/** Larger files are bundles or generated tables, not files people write. */
const MAX_FILE_BYTES = 200_000;
const MAX_LINE_CHARS = 240;

/** The language of a file by its name: `source` languages must hold comments to be taken. */
const LANGUAGES: ReadonlyArray<{ language: string; pattern: RegExp; source: boolean; comment?: RegExp }> = [
  { language: 'ts', pattern: /\.d\.[cm]?ts$/, source: false },
  { language: 'ts', pattern: /\.[cm]?tsx?$/, source: true, comment: /^\s*(\/\/|\/\*|\*)/ },
  { language: 'js', pattern: /\.[cm]?jsx?$/, source: true, comment: /^\s*(\/\/|\/\*|\*)/ },
  { language: 'py', pattern: /\.py$/, source: true, comment: /^\s*(#|"""|''')/ },
  { language: 'sh', pattern: /\.(sh|bash)$/, source: true, comment: /^\s*#/ },
  { language: 'c', pattern: /\.(c|h|cc|cpp|hpp)$/, source: true, comment: /^\s*(\/\/|\/\*|\*)/ },
  { language: 'md', pattern: /\.(md|markdown)$/, source: false },
  { language: 'json', pattern: /\.json$/, source: false },
  { language: 'yaml', pattern: /\.ya?ml$/, source: false },
];
/** Comment lines an excerpt of source needs, so that it is code with comments, not bare code. */
const MIN_COMMENT_LINES = 3;
const SKIPPED = /(^|\/)(node_modules|\.git)(\/|$)|\.min\.|(^|\/)(CHANGELOG|HISTORY|LICEN[CS]E|package-lock)[^/]*$|(^|\/)package\.json$/i;

export interface CodeFile {
  package: string;
  version: string;
  path: string;
  license: string;
  language: string;
  text: string;
}

function filesOf(dir: string, under = ''): string[] {
  const found: string[] = [];
  for (const name of readdirSync(path.join(dir, under)).sort()) {
    const relative = under ? `${under}/${name}` : name;
    if (SKIPPED.test(relative)) continue;
    const stat = statSync(path.join(dir, relative));
    if (stat.isDirectory()) found.push(...filesOf(dir, relative));
    else if (stat.isFile() && stat.size <= MAX_FILE_BYTES) found.push(relative);
  }
  return found;
}

/** An excerpt of `text` at line boundaries, from a line chosen by `hash`; undefined if too short or not hand-written. */
function excerptOf(text: string, hash: number): string | undefined {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.some((line) => line.length > MAX_LINE_CHARS)) return undefined;
  const start = text.length <= MAX_CHARS ? 0 : hash % Math.max(1, lines.length - Math.floor(lines.length / 3));
  let excerpt = '';
  for (const line of lines.slice(start)) {
    if (excerpt.length + line.length + 1 > MAX_CHARS) break;
    excerpt += `${line}\n`;
  }
  excerpt = excerpt.trimEnd();
  return excerpt.length >= MIN_CHARS ? excerpt : undefined;
}

function packageFiles(lockPath: string, version: string, license: string): CodeFile[] {
  const dir = path.join(ROOT, lockPath);
  if (!existsSync(dir)) return [];
  const name = lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const candidates = filesOf(dir)
    .map((file) => ({ file, hash: fnv1a(`${name}@${version}/${file}`), kind: LANGUAGES.find(({ pattern }) => pattern.test(file)) }))
    .filter((c) => c.kind !== undefined)
    .sort((a, b) => a.hash - b.hash || (a.file < b.file ? -1 : 1));
  const chosen: CodeFile[] = [];
  for (const source of [true, false]) {
    for (const { file, hash, kind } of candidates.filter((c) => c.kind!.source === source)) {
      const text = excerptOf(readFileSync(path.join(dir, file), 'utf8'), hash);
      if (!text || (kind!.comment && text.split('\n').filter((line) => kind!.comment!.test(line)).length < MIN_COMMENT_LINES)) continue;
      chosen.push({ package: name, version, path: file, license, language: kind!.language, text });
      break;
    }
  }
  return chosen;
}

function main(): void {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; license?: string }> };
  const seen = new Set<string>();
  const files: CodeFile[] = [];
  for (const [lockPath, { version, license }] of Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!lockPath || !version || !license || !PERMISSIVE.test(license)) continue;
    for (const file of packageFiles(lockPath, version, license)) {
      // The same file installed twice (two versions of one package) is one text.
      if (seen.has(file.text)) continue;
      seen.add(file.text);
      files.push(file);
    }
  }
  const comment = 'Excerpts of real source files from the permissively licensed packages of package-lock.json (package, version, path and licence recorded per file), written by scripts/extract-kya-code.ts; benign code documents and hosts for planted comments, read by src/kya/training/dataset.ts (KYA round 12, README).';
  writeFileSync(OUT, `${JSON.stringify({ _comment: comment, files }, null, 1)}\n`);
  const byLanguage = new Map<string, number>();
  for (const file of files) byLanguage.set(file.language, (byLanguage.get(file.language) ?? 0) + 1);
  console.log(`wrote ${files.length} excerpts of ${new Set(files.map((f) => f.package)).size} packages to ${OUT}: ${[...byLanguage].map(([l, n]) => `${l} ${n}`).join(', ')}`);
}

main();
