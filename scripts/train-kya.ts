/**
 * Trains the embedded KYA injection model on the training split, calibrates its score on the validation split and
 * writes src/kya/model/kya-model.json.
 *   npm run train:kya            (public data from KYX_KYA_DATA_DIR, default ../shared/data/kya)
 *   npm run train:kya -- --seed 7 --out /tmp/kya-model-7.json
 *                                (another training seed, to see how much the model varies with its initial weights
 *                                and order of training alone; the data set and its split stay the same)
 * Deterministic: a fixed seed drives corpus expansion, initial weights and the order of training, so the same
 * inputs give the same model, byte for byte. The hyper-parameters were chosen on the validation split (and by
 * cross-validation over the training and validation partitions), never on the test split.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildDataset, defaultDatasetOptions, isCalibrationSample, splitOf } from '../src/kya/training/dataset.ts';
import { fitCalibration, trainModel, type TrainingOptions } from '../src/kya/training/train.ts';

export const TRAINING: TrainingOptions = {
  version: '5.10.0',
  windowChars: 192,
  strideChars: 64,
  judgedWindows: 4,
  ranker: { hashBits: 18, epochs: 8, learningRate: 0.2, l2: 1e-5 },
  judge: { hashBits: 18, dimensions: 16, hidden: 32, epochs: 6, learningRate: 0.05, count: 3 },
  vocabularyBits: 20,
};

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function main(): void {
  const started = Date.now();
  const seed = argument('--seed');
  if (seed !== undefined && !/^\d+$/.test(seed)) throw new Error(`--seed takes a whole number, not ${seed}`);
  const dataset = buildDataset(defaultDatasetOptions());
  const train = dataset.filter((s) => splitOf(s.group) === 'train');
  const validation = dataset.filter(isCalibrationSample);
  const file = trainModel(train, { ...TRAINING, ...(seed === undefined ? {} : { seed: Number(seed) }), log: console.log });
  file.calibration = fitCalibration(file, validation);
  console.log(`calibrated on ${validation.length} validation samples: score = σ(${file.calibration.slope.toFixed(4)} · z + ${file.calibration.intercept.toFixed(4)})`);
  const out = path.resolve(argument('--out') ?? new URL('../src/kya/model/kya-model.json', import.meta.url).pathname);
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  console.log(`trained on ${train.length} of ${dataset.length} samples in ${((Date.now() - started) / 1000).toFixed(1)} s; wrote ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
