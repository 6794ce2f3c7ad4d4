// False alarms of organisations written short (round 28, issue #13): everyday acronyms and short company names that
// are not listed (data/aml-eval/acronym-probes-r28.tsv), and random capital strings of three to five letters from a
// fixed seed, screened as organisations at the default threshold against the loaded lists. Run it on two engines to
// compare: `node --import tsx scripts/probe-aml-acronyms.ts [--list] [--probes FILE]` (another file of kind, name lines).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseListFileSet, scanListsDir } from '../src/aml/parsers/detect.ts';
import { buildIndex } from '../src/aml/matching.ts';
import { screen, type ListsSnapshot } from '../src/aml/screen.ts';
import type { ListEntity } from '../src/aml/model.ts';
import { mulberry32 } from './eval-aml.ts';

const LISTS_DIR = process.env.KYX_LISTS_DIR ?? fileURLToPath(new URL('../../shared/data/lists/current', import.meta.url));
const probesArg = process.argv.indexOf('--probes');
const PROBES = probesArg > 0 ? new URL(process.argv[probesArg + 1], `file://${process.cwd()}/`) : new URL('../data/aml-eval/acronym-probes-r28.tsv', import.meta.url);
const RANDOM_PER_LENGTH = 1000;

const entities: ListEntity[] = [];
for (const set of (await scanListsDir(LISTS_DIR)).lists) entities.push(...(await parseListFileSet(set)).entities);
const lists: ListsSnapshot = { index: buildIndex(entities), lists: [], listsVersion: 'probe' };
const show = process.argv.includes('--list');

function alert(name: string): string | undefined {
  const top = screen(lists, { name, type: 'organization' }).matches[0];
  return top ? `${top.matchedName} ${top.score}` : undefined;
}

const probes = new Map<string, string>();
for (const line of readFileSync(PROBES, 'utf8').split('\n')) {
  if (!line || line.startsWith('#')) continue;
  const [kind, name] = line.split('\t');
  if (!probes.has(name)) probes.set(name, kind);
}
const byKind = new Map<string, [number, number]>();
const alerts: string[] = [];
for (const [name, kind] of probes) {
  const found = alert(name);
  const [hit, all] = byKind.get(kind) ?? [0, 0];
  byKind.set(kind, [hit + (found ? 1 : 0), all + 1]);
  if (found) alerts.push(`${name} → ${found}`);
}
const total = [...byKind.values()].reduce((sum, [hit]) => sum + hit, 0);
console.log(`everyday short names (${probes.size}): ${total} alert; ${[...byKind].map(([k, [hit, all]]) => `${k} ${hit}/${all}`).join(', ')}`);
if (show) for (const line of alerts) console.log(`  ${line}`);

const random = mulberry32(20261128);
for (const length of [3, 4, 5]) {
  const seen = new Set<string>();
  let hits = 0;
  const examples: string[] = [];
  while (seen.size < RANDOM_PER_LENGTH) {
    const text = Array.from({ length }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join('');
    if (seen.has(text)) continue;
    seen.add(text);
    const found = alert(text);
    if (found) {
      hits++;
      if (examples.length < 15) examples.push(`${text} → ${found}`);
    }
  }
  console.log(`random ${length}-letter capitals: ${hits}/${RANDOM_PER_LENGTH} alert (${((hits / RANDOM_PER_LENGTH) * 100).toFixed(1)} %)`);
  if (show) for (const line of examples) console.log(`  ${line}`);
}
