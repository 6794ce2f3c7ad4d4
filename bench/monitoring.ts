// AML monitoring benchmark (npm run bench monitoring): every list of ../shared/data/lists/current, 100,000 enrolled
// names, a "daily update" that changes 200 entries and adds 20. Prints the time to re-screen every name against the
// changed entries (rescreenSubject, as the re-screen after a list swap runs it) and the number of alerts, with the
// time of a full screen of the same names in the same run as the baseline. The database writes come on top: one
// transaction per 1,000 names that have a change, which is very few of them.
import { fileURLToPath } from 'node:url';
import { buildIndex } from '../src/aml/matching.ts';
import type { ListEntity } from '../src/aml/model.ts';
import { listChanges, rescreenSubject } from '../src/aml/monitoring.ts';
import { parseListFileSet, scanListsDir } from '../src/aml/parsers/detect.ts';
import { type ListsSnapshot, type ScreeningQuery, screen } from '../src/aml/screen.ts';

const LISTS_DIR = process.env.KYX_LISTS_DIR ?? fileURLToPath(new URL('../../shared/data/lists/current', import.meta.url));
const SUBJECTS = 100_000;
const BASELINE_SAMPLE = 5_000;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export async function run(): Promise<void> {
  const scan = await scanListsDir(LISTS_DIR);
  const previous: ListEntity[] = [];
  for (const set of scan.lists) previous.push(...(await parseListFileSet(set)).entities);
  const random = seeded(20261124);
  // the update: 200 entries get a new alias, 20 new people are listed
  const next = previous.map((entity) => (random() < 200 / previous.length ? { ...entity, names: [...entity.names, { ...entity.names[0], full: `${entity.names[0].full} Jr` }] } : entity));
  const given = ['Anna', 'Omar', 'Li', 'Sergei', 'Fatima', 'John', 'Maria', 'Kwame', 'Yusuf', 'Elena'];
  const family = ['Petrov', 'Haddad', 'Wang', 'Okafor', 'Silva', 'Smith', 'Kowalski', 'Nguyen', 'Rahman', 'Costa'];
  const added = Array.from({ length: 20 }, (_, i) => ({ ...previous[i], id: `bench:new-${i}`, names: [{ ...previous[i].names[0], full: `${given[i % 10]} ${family[(i * 3) % 10]}ovic` }] }));
  next.push(...added);

  const snapshot: ListsSnapshot = { index: buildIndex(next), lists: [], listsVersion: 'lv_bench' };
  const subjects: ScreeningQuery[] = Array.from({ length: SUBJECTS }, (_, i) =>
    i % 5_000 === 0 ? { name: added[(i / 5_000) % added.length].names[0].full, type: 'person' } : { name: `${given[Math.floor(random() * 10)]} ${family[Math.floor(random() * 10)]}${i.toString(36)}`, type: 'person' },
  );

  let started = performance.now();
  const changes = listChanges(previous, next);
  const diffMs = performance.now() - started;

  started = performance.now();
  let alerts = 0;
  for (const query of subjects) alerts += rescreenSubject(snapshot, changes, query, []).changes.length;
  const rescreenMs = performance.now() - started;

  started = performance.now();
  for (const query of subjects.slice(0, BASELINE_SAMPLE)) screen(snapshot, query);
  const fullPerName = (performance.now() - started) / BASELINE_SAMPLE;

  console.log(`lists: ${previous.length} entities; update: ${changes.changed.size} added or changed, ${changes.removed.size} removed (diff ${diffMs.toFixed(0)} ms)`);
  console.log(`re-screen of ${SUBJECTS.toLocaleString('en')} enrolled names: ${(rescreenMs / 1000).toFixed(1)} s (${((rescreenMs / SUBJECTS) * 1000).toFixed(0)} µs each), ${alerts} alerts (target: under 60 s)`);
  console.log(`baseline, full screen per name in the same run: ${(fullPerName * 1000).toFixed(0)} µs; ratio re-screen / full screen ${(rescreenMs / SUBJECTS / fullPerName).toFixed(2)}×`);
}
