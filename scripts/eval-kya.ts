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
import { createModel, loadEmbeddedModel, type ModelFile } from '../src/kya/model.ts';
import { normalisePrompt } from '../src/kya/normalise.ts';
import { screenPrompt } from '../src/kya/screen.ts';
import { matchSignatures } from '../src/kya/signatures.ts';
import { buildDataset, defaultDatasetOptions, isCalibrationSample, splitOf, type Sample } from '../src/kya/training/dataset.ts';

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

function table(title: string, rows: Map<string, Scored[]>, review: number, block: number): void {
  console.log(`\n${title}`);
  console.log(`${'group'.padEnd(44)} ${'n'.padStart(5)}  ${'≥review'.padStart(7)} ${'≥block'.padStart(7)}  ${'flagged'.padStart(7)} ${'blocked'.padStart(7)}`);
  for (const [name, items] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${name.padEnd(44)} ${String(items.length).padStart(5)}  ${rate(items, (s) => s.score >= review).padStart(7)} ${rate(items, (s) => s.score >= block).padStart(7)}  ${rate(items, (s) => s.outcome !== 'passed_screening').padStart(7)} ${rate(items, (s) => s.outcome === 'blocked').padStart(7)}`);
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

function groupBy(items: Scored[], key: (s: Scored) => string): Map<string, Scored[]> {
  const groups = new Map<string, Scored[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

function main(): void {
  const dataset = buildDataset(defaultDatasetOptions());
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
  const injections = measuredSamples.filter((s) => s.sample.label === 1);
  const benign = measuredSamples.filter((s) => s.sample.label === 0);
  const atOnePercent = thresholdAtFpr(measuredSamples, 0.01);
  console.log(`\n${measured === 'test' ? 'HELD-OUT TEST SPLIT' : 'VALIDATION SPLIT'}: ${measuredSamples.length} samples, ${injections.length} injections, ${benign.length} benign`);
  console.log(`ROC AUC (model score)                 ${rocAuc(measuredSamples).toFixed(4)}`);
  console.log(`TPR at review threshold (model)       ${rate(injections, (s) => s.score >= review)}`);
  console.log(`TPR at block threshold (model)        ${rate(injections, (s) => s.score >= block)}`);
  console.log(`FPR at review threshold (model)       ${rate(benign, (s) => s.score >= review)}`);
  console.log(`FPR at block threshold (model)        ${rate(benign, (s) => s.score >= block)}`);
  console.log(`TPR at FPR ≤ 1 % (ROC point, t=${thresholdText(atOnePercent)}) ${rate(injections, (s) => s.score >= atOnePercent)}`);
  // The public samples do not change when the corpus grows: the figure to compare models across corpus versions.
  const publicOnly = measuredSamples.filter((s) => s.sample.source === 'public');
  const publicInjections = publicOnly.filter((s) => s.sample.label === 1);
  const publicAtOnePercent = thresholdAtFpr(publicOnly, 0.01);
  console.log(`public data only (${publicOnly.length}): ROC AUC ${rocAuc(publicOnly).toFixed(4)}, TPR at review ${rate(publicInjections, (s) => s.score >= review)}, ` +
    `TPR at FPR ≤ 1 % (t=${thresholdText(publicAtOnePercent)}) ${rate(publicInjections, (s) => s.score >= publicAtOnePercent)}, FPR at review ${rate(publicOnly.filter((s) => s.sample.label === 0), (s) => s.score >= review)}`);
  console.log(`live decision: injections not passed   ${rate(injections, (s) => s.outcome !== 'passed_screening')}, blocked ${rate(injections, (s) => s.outcome === 'blocked')}`);
  console.log(`live decision: benign not passed       ${rate(benign, (s) => s.outcome !== 'passed_screening')}, blocked ${rate(benign, (s) => s.outcome === 'blocked')}`);
  const risky = benign.filter((s) => RISKY_FAMILIES.includes(s.sample.family));
  const natural = benign.filter(isNatural);
  const foreign = benign.filter((s) => s.sample.language !== 'en');
  const encoded = benign.filter((s) => s.sample.encoding !== undefined);
  for (const [name, items] of [['natural benign', natural], ['risky-looking benign', risky], ['non-English benign', foreign], ['encoded benign', encoded]] as const) {
    console.log(`FPR ${name.padEnd(22)} n=${String(items.length).padStart(4)}  model≥review ${rate(items, (s) => s.score >= review)}  live flagged ${rate(items, (s) => s.outcome !== 'passed_screening')}  live blocked ${rate(items, (s) => s.outcome === 'blocked')}`);
  }
  table('Injections by family (TPR)', groupBy(injections, (s) => s.sample.family + (s.sample.encoding ? `:${s.sample.encoding}` : '')), review, block);
  table('Injections by language (TPR)', groupBy(injections, (s) => s.sample.language), review, block);
  table('Benign by family (FPR)', groupBy(benign, (s) => s.sample.family + (s.sample.encoding ? `:${s.sample.encoding}` : '')), review, block);
  table('Benign by language (FPR)', groupBy(benign, (s) => s.sample.language), review, block);
  signatureTable(injections, benign);
}

main();
