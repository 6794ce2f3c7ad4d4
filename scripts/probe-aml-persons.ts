/**
 * Round 29's quick probe of persons (`node --import tsx scripts/probe-aml-persons.ts [--misses]`): on the DEV halves
 * only of the hand-written pair files (person rows; rounds 14, 19, 22, 25, 28, 31) the recall of person_press pairs and the
 * false-alarm rate of person_different pairs, the false alarms on the dev halves of every unlisted-persons file, and
 * the alerts on data/aml-eval/lookalike-persons-r29.tsv (unlisted persons sharing a part with a listed one) and on the
 * reviews' data/aml-eval/review-persons-r29.tsv (relatives, namesakes, German spellings; by listed entity) and
 * review-persons-r32.tsv (unlisted persons and ships, variants of listed persons and vessels), and round 33's
 * everyday-persons-r33.tsv (names in longer or shorter forms; with --misses, each row against its expectation) and
 * the review's review-persons-r33.tsv (names written with an alias or a quoted nickname, companies 'form "name"'). One index holds every
 * file's pairs, so figures may differ slightly from `npm run eval:aml`, which is the measure.
 */
import { fileURLToPath } from 'node:url';
import { parseListFileSet, scanListsDir } from '../src/aml/parsers/detect.ts';
import { buildIndex } from '../src/aml/matching.ts';
import { tokenise } from '../src/aml/normalize.ts';
import { DEFAULT_THRESHOLD, screen, type ListsSnapshot } from '../src/aml/screen.ts';
import { emptyEntity, type ListEntity } from '../src/aml/model.ts';
import { dataRows as rows, handSplit } from './eval-aml.ts';

const LISTS_DIR = process.env.KYX_LISTS_DIR ?? fileURLToPath(new URL('../../shared/data/lists/current', import.meta.url));
const showMisses = process.argv.includes('--misses');
// Split as scripts/eval-aml.ts splits hand-written files: a salted hash of the row's first name.
const isDev = (key: string): boolean => handSplit(key) === 'dev';

const entities: ListEntity[] = [];
for (const set of (await scanListsDir(LISTS_DIR)).lists) entities.push(...(await parseListFileSet(set)).entities);
const listedWords = new Set(entities.flatMap((e) => e.names.map((n) => tokenise(n.full).sort().join(' '))));

interface Pair { file: string; label: string; query: string; listed: string; listedId: string }
const pairs: Pair[] = [];
const pairEntities: ListEntity[] = [];
for (const [file, salt] of [['name-pairs-r14.tsv', 'r14:'], ['name-pairs-r19.tsv', 'r19:'], ['name-pairs-r22.tsv', 'r22:'], ['name-pairs-r25.tsv', 'r25:'], ['name-pairs-r28.tsv', 'r28:'], ['name-pairs-r31.tsv', 'r31:']]) {
  rows(file).forEach(([subclass, type, label, ...names], row) => {
    if (type !== 'person' || !isDev(salt + names[0])) return;
    const ids = names.map((name, position) => {
      const entity = emptyEntity('eval-pairs', `pair-${salt}${row}-${position}`, 'person');
      entity.names.push({ full: name, kind: 'primary' });
      pairEntities.push(entity);
      return entity.id;
    });
    for (let i = 0; i < names.length; i++) {
      for (let j = 0; j < names.length; j++) {
        if (i === j || (label === 'different' && names.length !== 2)) continue;
        pairs.push({ file: `${file.slice(11, 14)} ${subclass}_${label}`, label, query: names[j], listed: names[i], listedId: ids[i] });
      }
    }
  });
}
const pairLists: ListsSnapshot = { index: buildIndex([...entities, ...pairEntities]), lists: [], listsVersion: 'probe' };
const tally = new Map<string, [number, number]>();
for (const pair of pairs) {
  const found = screen(pairLists, { name: pair.query, type: 'person', limit: 1000 }).matches.some((m) => m.entityId === pair.listedId);
  const [hit, all] = tally.get(pair.file) ?? [0, 0];
  tally.set(pair.file, [hit + (found ? 1 : 0), all + 1]);
  if (showMisses && found !== (pair.label === 'same')) {
    const seen = screen(pairLists, { name: pair.query, type: 'person', threshold: 0.5, limit: 1000 }).matches.find((m) => m.entityId === pair.listedId);
    console.log(`  ${found ? 'false alarm' : 'miss'} ${pair.file}: "${pair.query}" vs "${pair.listed}" ${seen?.score ?? 0}`);
  }
}
for (const [file, [hit, all]] of [...tally].sort()) console.log(`${file}: ${hit}/${all} found (${(hit / all).toFixed(3)})`);

const lists: ListsSnapshot = { index: buildIndex(entities), lists: [], listsVersion: 'probe' };
const alerts = (names: string[], label: string): void => {
  const flagged = names.filter((name) => screen(lists, { name, type: 'person' }).matches.length > 0);
  console.log(`${label}: ${flagged.length}/${names.length} alert${flagged.length ? ` (${flagged.join('; ')})` : ''}`);
};
for (const [file, salt] of [['unlisted-names.tsv', ''], ['unlisted-names-r12.tsv', 'r12:'], ['unlisted-names-r14.tsv', 'r14:'], ['unlisted-names-r17.tsv', 'r17:'], ['unlisted-names-r25.tsv', 'r25:'], ['unlisted-names-r28.tsv', 'r28:'], ['unlisted-names-r31.tsv', 'r31:']]) {
  const names = rows(file).filter(([, type, name]) => type === 'person' && isDev(salt + name) && !listedWords.has(tokenise(name).sort().join(' '))).map(([, , name]) => name);
  alerts(names, `${file} dev persons`);
}
// Rounds 31 and 32's everyday persons and round 31's review persons (public figures on no list), every row, with what each alert found.
for (const file of ['everyday-persons-r31.tsv', 'review-persons-r31.tsv', 'everyday-persons-r32.tsv']) {
  const everyday = rows(file).map(([, name]) => name).filter((name) => !listedWords.has(tokenise(name).sort().join(' ')));
  const everydayAlerts = everyday.flatMap((name) => screen(lists, { name, type: 'person' }).matches.slice(0, 1).map((m) => `${name} → ${m.matchedName} ${m.score}`));
  console.log(`${file.slice(0, -4)} (all rows): ${everydayAlerts.length}/${everyday.length} alert${everydayAlerts.length ? ` (${everydayAlerts.join('; ')})` : ''}`);
}
alerts(rows('lookalike-persons-r29.tsv').map(([, name]) => name).filter((name) => !listedWords.has(tokenise(name).sort().join(' '))), 'lookalike-persons-r29 (all rows)');

// The reviews' probes: whether one of the named listed entities (ids joined by |; * = any) alerts, tallied by class and
// expectation; a vessel or organisation class is screened as a non-person (the API's organisation type).
const reviewTally = new Map<string, [number, number]>();
for (const file of ['review-persons-r29.tsv', 'review-persons-r32.tsv', 'everyday-persons-r33.tsv', 'review-persons-r33.tsv']) {
  for (const [subclass, expected, name, entityIds] of rows(file)) {
    const matches = screen(lists, { name, type: /vessel|org/.test(subclass) ? 'organization' : 'person', limit: 1000 }).matches;
    const ids = entityIds.split('|');
    const alerted = entityIds === '*' ? matches.length > 0 : matches.some((m) => ids.includes(m.entityId));
    const key = `${file.slice(0, -4)} ${subclass} (should alert: ${expected})`;
    const [hit, all] = reviewTally.get(key) ?? [0, 0];
    reviewTally.set(key, [hit + (alerted ? 1 : 0), all + 1]);
    if (showMisses && alerted !== (expected === 'yes')) console.log(`  ${key}: ${alerted ? `alert "${name}" → ${matches[0].matchedName} ${matches[0].score}` : `miss "${name}"`}`);
  }
}
for (const [key, [hit, all]] of [...reviewTally].sort()) console.log(`${key}: ${hit}/${all} alert`);
