/**
 * Trains the embedded KYA injection model on the training split and writes src/kya/model/kya-model.json.
 *   npm run train:kya            (public data from KYX_KYA_DATA_DIR, default ../shared/data/kya)
 * Deterministic: a fixed seed drives corpus expansion and the order of training, so the same inputs give the
 * same weights, byte for byte. The hyper-parameters were chosen on the validation split, never on the test split.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_PARAMS } from '../src/kya/model.ts';
import { buildDataset, defaultDatasetOptions, splitOf } from '../src/kya/training/dataset.ts';
import { trainModel } from '../src/kya/training/train.ts';

export const MODEL_VERSION = '3.0.0';
export const TRAINING = { epochs: 12, learningRate: 0.2, l2: 1e-5 } as const;

function main(): void {
  const started = Date.now();
  const dataset = buildDataset(defaultDatasetOptions());
  const train = dataset.filter((s) => splitOf(s.group) === 'train');
  const trained = trainModel(train, { version: MODEL_VERSION, ...FEATURE_PARAMS, ...TRAINING, log: console.log });
  const out = path.resolve(new URL('../src/kya/model', import.meta.url).pathname);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'kya-model.json'), `${JSON.stringify(trained.file)}\n`);
  console.log(`trained on ${train.length} samples (${trained.windows} windows/views, ${trained.injectionWindows} injection) of ${dataset.length}; ` +
    `weights sha256 ${trained.file.weightsSha256.slice(0, 16)}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
