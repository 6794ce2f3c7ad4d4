// What a list costs in memory, loaded as the service loads it (ListRegistry: parse in a worker thread, index
// build, warm-up), for the sizing table in src/aml/README.md (summed up in the README's AML section):
//   node --expose-gc --import tsx scripts/measure-aml-memory.ts                    # the lists in ../shared/data/lists/current
//   node --expose-gc --import tsx scripts/measure-aml-memory.ts --synthetic 500000 # a generated FollowTheMoney list
// Prints resident memory before loading, its peak while loading (the kernel's high-water mark, VmHWM, so the
// index build between two samples is not missed) and after a full GC once loaded, per entity, and the first
// screening's time after load.
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createListRegistry } from '../src/aml/registry.ts';
import { screen } from '../src/aml/screen.ts';

const SYLLABLES = ['al', 'an', 'ar', 'ba', 'be', 'da', 'de', 'el', 'fa', 'ga', 'ha', 'ib', 'ka', 'ko', 'la', 'li', 'ma', 'mo', 'na', 'ni', 'ol', 'pa', 'ra', 'ro', 'sa', 'se', 'ta', 'to', 'va', 'vi', 'ya', 'za', 'zu', 'ch', 'sh', 'kh'];
const COUNTRIES = ['RU', 'IR', 'KP', 'SY', 'CU', 'VE', 'BY', 'CN', 'AE', 'TR', 'IQ', 'LY', 'SD', 'MM', 'AF'];

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/**
 * Writes OpenSanctions-like entities (persons and companies, 1–4 names each, dates of birth, countries,
 * identifiers) to `path`, a chunk at a time so that the text never sits in this process's memory.
 */
async function writeSyntheticFtm(path: string, count: number): Promise<void> {
  const random = seeded(20261123);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const word = () => {
    let text = '';
    for (let i = 0, n = 2 + Math.floor(random() * 2); i < n; i++) text += pick(SYLLABLES);
    return text[0].toUpperCase() + text.slice(1);
  };
  let lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const person = random() < 0.75;
    const name = () => (person ? `${word()} ${random() < 0.5 ? `${word()} ` : ''}${word()}` : `${word()} ${word()} ${pick(['LLC', 'Ltd', 'Trading Co', 'Holding', 'OOO'])}`);
    const properties: Record<string, string[]> = {
      name: [name()],
      alias: Array.from({ length: Math.floor(random() * 4) }, name),
      country: [pick(COUNTRIES)],
      topics: ['sanction'],
    };
    if (person) {
      properties.birthDate = [`19${40 + Math.floor(random() * 60)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`];
      properties.nationality = properties.country;
      if (random() < 0.3) properties.passportNumber = [`P${Math.floor(random() * 1e8)}`];
    } else if (random() < 0.5) {
      properties.registrationNumber = [String(Math.floor(random() * 1e12))];
    }
    lines.push(JSON.stringify({ id: `syn-${i}`, schema: person ? 'Person' : 'Company', target: true, properties }));
    if (lines.length === 10_000 || i === count - 1) {
      await appendFile(path, lines.join('\n') + '\n');
      lines = [];
    }
  }
}

async function residentKb(field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile('/proc/self/status', 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { synthetic: { type: 'string' } } });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const work = await mkdtemp(join(tmpdir(), 'kyx-aml-memory-'));
  try {
    let listsDir = fileURLToPath(new URL('../../shared/data/lists/current', import.meta.url));
    if (values.synthetic) {
      listsDir = join(work, 'lists');
      await mkdir(listsDir);
      await writeSyntheticFtm(join(listsDir, 'synthetic.ftm.json'), Number(values.synthetic));
    }
    const registry = createListRegistry({ listsDir, dataDir: join(work, 'data') });
    gc();
    const before = await residentKb('VmRSS');
    // Resets the high-water mark to the current RSS (Linux ≥ 4.0), so the peak is the loading's own.
    await writeFile('/proc/self/clear_refs', '5').catch(() => undefined);
    const started = performance.now();
    await registry.load();
    const loadMs = performance.now() - started;
    const peak = await residentKb('VmHWM');
    const snapshot = registry.snapshot()!;
    const entities = snapshot.index.entities.length;
    const firstEntity = snapshot.index.entities[Math.floor(entities / 2)].names[0].full;
    let t = performance.now();
    screen(snapshot, { name: firstEntity });
    const firstMs = performance.now() - t;
    t = performance.now();
    screen(snapshot, { name: firstEntity });
    const secondMs = performance.now() - t;
    gc();
    const steady = await residentKb('VmRSS');
    await registry.close();
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    console.log(`${entities} entities, ${snapshot.index.nameEntity.length} indexed names, loaded in ${(loadMs / 1000).toFixed(1)} s`);
    console.log(`RSS before ${mb(before)}, peak while loading ${mb(peak)}, steady after GC ${mb(steady)}`);
    console.log(`per entity ${((steady - before) / entities).toFixed(2)} KB resident; peak/steady ${(peak / steady).toFixed(2)}× (growth: ${((peak - before) / (steady - before)).toFixed(2)}×)`);
    console.log(`first screening after load ${firstMs.toFixed(1)} ms, the same query again ${secondMs.toFixed(1)} ms`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
