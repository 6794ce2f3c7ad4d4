/**
 * Measures the KYA screener on the held-out test split (groups training never sees):
 *   npm run eval:kya
 *   npm run eval:kya -- --split validation   (the same tables on the validation split, to tune signatures on)
 *   npm run eval:kya -- --model /tmp/candidate.json   (a trained model file that is not installed yet)
 * Model figures (ROC AUC, TPR/FPR at the configured thresholds, TPR at FPR ≤ 1 %) and the figures of the whole
 * live decision (signatures + model), per family and per language. The validation split (on which training
 * calibrates the score) is shown only to say where the default thresholds come from; nothing here feeds back
 * into training.
 */
import { loadConfig } from '../src/config.ts';
import { DEFAULT_KYA_THRESHOLDS } from '../src/kya/config.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createModel, loadEmbeddedModel, type ModelFile } from '../src/kya/model.ts';
import { normalisePrompt } from '../src/kya/normalise.ts';
import { screenPrompt } from '../src/kya/screen.ts';
import { matchSignatures } from '../src/kya/signatures.ts';
import { buildDataset, conceptsOfGroups, defaultDatasetOptions, isCalibrationSample, isPlacedParallelSet, parallelText, splitOf, type Sample } from '../src/kya/training/dataset.ts';
import { isTranslationLeakFree } from '../src/kya/training/translation-leaks.ts';

interface Scored {
  sample: Sample;
  score: number;
  outcome: string;
  signatures: readonly string[];
}

function rocAuc(scored: Scored[]): number {
  const positives = scored.filter((s) => s.sample.label === 1).map((s) => s.score);
  const negatives = scored.filter((s) => s.sample.label === 0).map((s) => s.score).sort((a, b) => a - b);
  if (positives.length === 0 || negatives.length === 0) return NaN;
  let wins = 0;
  for (const p of positives) {
    // Count negatives below p (ties count half) by binary search.
    let lo = 0;
    let hi = negatives.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (negatives[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    let ties = 0;
    for (let i = lo; i < negatives.length && negatives[i] === p; i++) ties++;
    wins += lo + ties / 2;
  }
  return wins / (positives.length * negatives.length);
}

/** The lowest threshold at which at most `maxFpr` of the benign samples score at or over it. */
function thresholdAtFpr(scored: Scored[], maxFpr: number): number {
  const negatives = scored.filter((s) => s.sample.label === 0).map((s) => s.score).sort((a, b) => b - a);
  const allowed = Math.floor(negatives.length * maxFpr);
  return allowed < negatives.length ? negatives[allowed] + 1e-9 : 0;
}

/**
 * A threshold as printed: rounded up to three decimals, never to the nearest, so that the printed value admits no
 * more benign prompts than the rule allows (0.87112 rounded to the nearest, 0.871, admitted 9 natural benign
 * validation prompts of 860 where the rule allows 8).
 */
const thresholdText = (threshold: number) => (Math.ceil(threshold * 1000) / 1000).toFixed(3);

const rate = (items: Scored[], predicate: (s: Scored) => boolean) =>
  items.length === 0 ? '   -  ' : `${((100 * items.filter(predicate).length) / items.length).toFixed(1).padStart(5)}%`;

const argument = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const modelFile = argument('--model');
const model = modelFile ? createModel(JSON.parse(readFileSync(modelFile, 'utf8')) as ModelFile) : loadEmbeddedModel();

/** Benign texts that look like nothing in particular: neither risky-looking nor encoded. */
const RISKY_FAMILIES = ['benign_risky', 'benign_security_text', 'benign_security_request'];
const isNatural = (s: Scored) => s.sample.label === 0 && !RISKY_FAMILIES.includes(s.sample.family) && s.sample.encoding === undefined;

function score(samples: Sample[]): Scored[] {
  const thresholds = loadConfig().kya.thresholds;
  return samples.map((sample) => {
    const normalised = normalisePrompt(sample.text);
    return {
      sample,
      score: model.score(normalised.views.map((v) => v.cased)),
      outcome: screenPrompt(sample.text, { environment: 'live', model, thresholds }).outcome,
      signatures: matchSignatures(normalised).ids,
    };
  });
}

const injectionsOf = (items: Scored[]) => items.filter((s) => s.sample.label === 1);
const benignOf = (items: Scored[]) => items.filter((s) => s.sample.label === 0);

/** A subset of the measured samples, reported side by side with the others. */
interface Column {
  name: string;
  items: Scored[];
}

const LABEL = 50;
const CELL = 20;

/** One line of figures, one cell per column. */
const line = (label: string, columns: readonly Column[], cell: (items: Scored[]) => string) =>
  console.log(`${label.padEnd(LABEL)} ${columns.map(({ items }) => cell(items).padEnd(CELL)).join(' ')}`);

/** Per group (of the first column's keys): size and rates in each column. */
function table(title: string, columns: readonly Column[], keyOf: (s: Scored) => string, review: number, block: number): void {
  const groups = columns.map(({ items }) => groupBy(items, keyOf));
  const figures = ['n', '≥review', '≥block', 'flagged', 'blocked'];
  console.log(`\n${title}`);
  console.log(`${''.padEnd(44)} ${columns.map(({ name }) => `| ${name}`.padEnd(39)).join(' ')}`);
  console.log(`${'group'.padEnd(44)} ${columns.map(() => `| ${figures.map((f, i) => f.padStart(i === 0 ? 5 : 7)).join(' ')}`).join(' ')}`);
  for (const key of [...groups[0].keys()].sort((a, b) => a.localeCompare(b))) {
    const cells = groups.map((byKey) => {
      const items = byKey.get(key) ?? [];
      return `| ${String(items.length).padStart(5)} ${[(s: Scored) => s.score >= review, (s: Scored) => s.score >= block, (s: Scored) => s.outcome !== 'passed_screening', (s: Scored) => s.outcome === 'blocked'].map((p) => rate(items, p).padStart(7)).join(' ')}`;
    });
    console.log(`${key.padEnd(44)} ${cells.join(' ')}`);
  }
}

/** What each signature earns: the injections it catches that the model misses, and the benign prompts it flags, by family. */
function signatureTable(injections: Scored[], benign: Scored[]): void {
  const families = [...groupBy(benign, (s) => s.sample.family.replace(/^benign_/, '')).entries()].filter(([, items]) => items.length >= 20);
  const ids = [...new Set([...injections, ...benign].flatMap((s) => s.signatures))].sort();
  console.log('\nSignatures: share of injections hit (and hit while the model is below review), share of benign hit by family');
  console.log(`${'signature'.padEnd(26)} ${'inj'.padStart(6)} ${'alone'.padStart(6)}  ${families.map(([name]) => name.slice(0, 12).padStart(12)).join(' ')}`);
  const review = loadConfig().kya.thresholds.review;
  for (const id of ids) {
    const hit = (s: Scored) => s.signatures.includes(id);
    console.log(
      `${id.padEnd(26)} ${rate(injections, hit).padStart(6)} ${rate(injections, (s) => hit(s) && s.score < review).padStart(6)}  ` +
        families.map(([, items]) => rate(items, hit).padStart(12)).join(' '),
    );
  }
}

/** The texts (marks taken out) of the parallel sets written in a round (ids with -r<round>-). */
function roundSetTexts(corpusDir: string, round: number): Set<string> {
  const { sets } = JSON.parse(readFileSync(path.join(corpusDir, 'parallel.json'), 'utf8')) as { sets: Array<{ id: string; texts: Record<string, string> }> };
  return new Set(sets.filter((set) => set.id.includes(`-r${round}-`)).flatMap((set) => Object.values(set.texts).map((written) => parallelText(written).text)));
}

function groupBy(items: Scored[], key: (s: Scored) => string): Map<string, Scored[]> {
  const groups = new Map<string, Scored[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

function main(): void {
  const options = defaultDatasetOptions();
  const dataset = buildDataset(options);
  const { review, block } = loadConfig().kya.thresholds;
  const engine = model.engine;

  const validation = score(dataset.filter((s) => splitOf(s.group) === 'validation'));
  console.log(`engine ${engine}; thresholds review ${review}, block ${block} (defaults ${DEFAULT_KYA_THRESHOLDS.review}/${DEFAULT_KYA_THRESHOLDS.block})`);
  // The thresholds are chosen on the samples the score is calibrated on: the validation split without its bank.
  const calibration = validation.filter((s) => isCalibrationSample(s.sample));
  const [validationReview, validationBlock] = [thresholdAtFpr(calibration, 0.01), thresholdAtFpr(calibration, 0.001)];
  const validationNatural = calibration.filter(isNatural);
  console.log(`validation split without its bank (${calibration.length}): threshold at FPR 1 % = ${thresholdText(validationReview)}, at FPR 0.1 % = ${thresholdText(validationBlock)}; ` +
    `natural benign (${validationNatural.length}) at or over them ${rate(validationNatural, (s) => s.score >= validationReview)} / ${rate(validationNatural, (s) => s.score >= validationBlock)}, ` +
    `at the configured thresholds ${rate(validationNatural, (s) => s.score >= review)} / ${rate(validationNatural, (s) => s.score >= block)}`);
  // Where the defaults come from: review where at most 1 % of all benign and of natural benign validation prompts
  // score as high, block where at most 0.1 % of all do.
  console.log(`validation split: review threshold chosen = ${thresholdText(Math.max(validationReview, thresholdAtFpr(validationNatural, 0.01)))}, block = ${thresholdText(validationBlock)}`);

  const measured = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'test';
  if (measured !== 'test' && measured !== 'validation') throw new Error(`--split test|validation, not ${measured}`);
  const measuredSamples = measured === 'validation' ? validation : score(dataset.filter((s) => splitOf(s.group) === 'test'));
  // Beside all measured samples, those with no text (nor part) whose translation (alignment.json) is in training.
  const leakFree = isTranslationLeakFree(conceptsOfGroups(options));
  const columns: Column[] = [
    { name: 'all', items: measuredSamples },
    { name: 'translation-leak-free', items: measuredSamples.filter((s) => leakFree(s.sample)) },
  ];
  // Round 22's parallel sets, placed by set in every split: beside the whole split, the split without them (the
  // corpus earlier rounds' figures were read on), and the sets on their own.
  const round22Sets = measuredSamples.filter((s) => isPlacedParallelSet(s.sample));
  if (round22Sets.length > 0) {
    columns.push({ name: 'without round-22 sets', items: measuredSamples.filter((s) => !isPlacedParallelSet(s.sample)) });
    console.log(`\nround 22's parallel sets in this split: planted injections flagged ${rate(injectionsOf(round22Sets), (s) => s.outcome !== 'passed_screening')} of ${injectionsOf(round22Sets).length}, ` +
      `model ≥ review ${rate(injectionsOf(round22Sets), (s) => s.score >= review)}; look-alikes not passed ${rate(benignOf(round22Sets), (s) => s.outcome !== 'passed_screening')} of ${benignOf(round22Sets).length}, ` +
      `model ≥ review ${rate(benignOf(round22Sets), (s) => s.score >= review)}, blocked ${rate(benignOf(round22Sets), (s) => s.outcome === 'blocked')}`);
    // Round 25's planted sets and look-alikes among them, round 26's sets in sv, ro, el and he and round 27's in ten
    // more languages (ids with -r25-, -r26-, -r27-; a set joined to the one it paraphrases carries that set's group,
    // so they are told apart by text).
    for (const round of [25, 26, 27]) {
      const texts = roundSetTexts(options.corpusDir, round);
      const sets = round22Sets.filter((s) => texts.has(s.sample.text));
      console.log(`of which round ${round}'s sets: injections flagged ${rate(injectionsOf(sets), (s) => s.outcome !== 'passed_screening')} of ${injectionsOf(sets).length}, ` +
        `model ≥ review ${rate(injectionsOf(sets), (s) => s.score >= review)}; look-alikes not passed ${rate(benignOf(sets), (s) => s.outcome !== 'passed_screening')} of ${benignOf(sets).length}`);
    }
  }
  console.log(`\n${measured === 'test' ? 'HELD-OUT TEST SPLIT' : 'VALIDATION SPLIT'}`);
  console.log(`${''.padEnd(LABEL)} ${columns.map(({ name }) => name.padEnd(CELL)).join(' ')}`);
  line('samples (injections / benign)', columns, (items) => `${items.length} (${injectionsOf(items).length} / ${benignOf(items).length})`);
  line('ROC AUC (model score)', columns, (items) => rocAuc(items).toFixed(4));
  line('TPR at review threshold (model)', columns, (items) => rate(injectionsOf(items), (s) => s.score >= review));
  line('TPR at block threshold (model)', columns, (items) => rate(injectionsOf(items), (s) => s.score >= block));
  line('FPR at review threshold (model)', columns, (items) => rate(benignOf(items), (s) => s.score >= review));
  line('FPR at block threshold (model)', columns, (items) => rate(benignOf(items), (s) => s.score >= block));
  line('TPR at FPR ≤ 1 % (ROC point)', columns, (items) => {
    const atOnePercent = thresholdAtFpr(items, 0.01);
    return `${rate(injectionsOf(items), (s) => s.score >= atOnePercent)} t=${thresholdText(atOnePercent)}`;
  });
  // The public samples do not change when the corpus grows: the figure to compare models across corpus versions.
  const publicOnly = measuredSamples.filter((s) => s.sample.source === 'public');
  const publicInjections = publicOnly.filter((s) => s.sample.label === 1);
  const publicAtOnePercent = thresholdAtFpr(publicOnly, 0.01);
  console.log(`public data only (${publicOnly.length}, no bank text): ROC AUC ${rocAuc(publicOnly).toFixed(4)}, TPR at review ${rate(publicInjections, (s) => s.score >= review)}, ` +
    `TPR at FPR ≤ 1 % (t=${thresholdText(publicAtOnePercent)}) ${rate(publicInjections, (s) => s.score >= publicAtOnePercent)}, FPR at review ${rate(publicOnly.filter((s) => s.sample.label === 0), (s) => s.score >= review)}`);
  line('live: injections not passed / blocked', columns, (items) => `${rate(injectionsOf(items), (s) => s.outcome !== 'passed_screening')} / ${rate(injectionsOf(items), (s) => s.outcome === 'blocked')}`);
  line('live: benign not passed / blocked', columns, (items) => `${rate(benignOf(items), (s) => s.outcome !== 'passed_screening')} / ${rate(benignOf(items), (s) => s.outcome === 'blocked')}`);
  const benignKinds: Array<[string, (s: Scored) => boolean]> = [
    ['natural', isNatural],
    ['risky-looking', (s) => RISKY_FAMILIES.includes(s.sample.family)],
    ['non-English', (s) => s.sample.language !== 'en'],
    ['encoded', (s) => s.sample.encoding !== undefined],
  ];
  for (const [name, isKind] of benignKinds) {
    const of = (items: Scored[]) => benignOf(items).filter(isKind);
    line(`FPR ${name} benign: n, model≥review`, columns, (items) => `${String(of(items).length).padStart(4)} ${rate(of(items), (s) => s.score >= review)}`);
    line(`FPR ${name} benign: live flagged / blocked`, columns, (items) => `${rate(of(items), (s) => s.outcome !== 'passed_screening')} / ${rate(of(items), (s) => s.outcome === 'blocked')}`);
  }
  const familyOf = (s: Scored) => s.sample.family + (s.sample.encoding ? `:${s.sample.encoding}` : '');
  const languageOf = (s: Scored) => s.sample.language;
  table('Injections by family (TPR)', columns.map((c) => ({ ...c, items: injectionsOf(c.items) })), familyOf, review, block);
  table('Injections by language (TPR)', columns.map((c) => ({ ...c, items: injectionsOf(c.items) })), languageOf, review, block);
  table('Benign by family (FPR)', columns.map((c) => ({ ...c, items: benignOf(c.items) })), familyOf, review, block);
  table('Benign by language (FPR)', columns.map((c) => ({ ...c, items: benignOf(c.items) })), languageOf, review, block);
  signatureTable(injectionsOf(measuredSamples), benignOf(measuredSamples));
}

main();
