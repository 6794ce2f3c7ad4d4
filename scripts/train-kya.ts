/**
 * Trains the embedded KYA injection model and writes src/kya/model/kya-model.json.
 *   npm run train:kya            (public data from KYX_KYA_DATA_DIR, default ../shared/data/kya)
 * Deterministic: a fixed seed drives corpus expansion and the order of training, so the same inputs give the
 * same weights, byte for byte.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FEATURE_PARAMS, type ModelFile } from '../src/kya/model.ts';
import { buildDataset, DEFAULT_SEED, defaultDatasetOptions, seededRandom, splitOf } from '../src/kya/training/dataset.ts';
import { trainingExamples } from '../src/kya/training/examples.ts';

export const MODEL_VERSION = '1.0.0';
const EPOCHS = 12;
const LEARNING_RATE = 0.2;
const L2 = 1e-6;

function main(): void {
  const started = Date.now();
  const options = defaultDatasetOptions();
  const dataset = buildDataset(options);
  const train = dataset.filter((s) => splitOf(s.group) === 'train');
  const examples = trainingExamples(train, FEATURE_PARAMS);
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  // Balanced classes: each class weighs as much in the loss whatever its count.
  const classWeight = [examples.length / (2 * negatives), examples.length / (2 * positives)];

  const size = 1 << FEATURE_PARAMS.hashBits;
  const weights = new Float64Array(size);
  const squaredGradients = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasSquared = 1e-8;
  const random = seededRandom(DEFAULT_SEED);
  const order = examples.map((_, i) => i);

  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (const index of order) {
      const { buckets, values, label } = examples[index];
      let z = bias;
      for (let k = 0; k < buckets.length; k++) z += weights[buckets[k]] * values[k];
      const p = 1 / (1 + Math.exp(-z));
      const weight = classWeight[label];
      loss -= weight * Math.log(label === 1 ? Math.max(p, 1e-12) : Math.max(1 - p, 1e-12));
      const error = weight * (p - label);
      for (let k = 0; k < buckets.length; k++) {
        const b = buckets[k];
        const g = error * values[k] + L2 * weights[b];
        squaredGradients[b] += g * g;
        weights[b] -= (LEARNING_RATE * g) / Math.sqrt(squaredGradients[b]);
      }
      biasSquared += error * error;
      bias -= (LEARNING_RATE * error) / Math.sqrt(biasSquared);
    }
    console.log(`epoch ${epoch + 1}/${EPOCHS}: mean loss ${(loss / examples.length).toFixed(4)}`);
  }

  const float32 = Float32Array.from(weights);
  const bytes = Buffer.from(float32.buffer);
  const model: ModelFile & { weightsSha256: string } = {
    format: 'kyx-kya-logreg',
    version: MODEL_VERSION,
    ...FEATURE_PARAMS,
    bias: Math.fround(bias),
    trainedOn: { samples: train.length, seed: DEFAULT_SEED, epochs: EPOCHS },
    weightsSha256: createHash('sha256').update(bytes).digest('hex'),
    weights: bytes.toString('base64'),
  };
  const out = path.resolve(new URL('../src/kya/model', import.meta.url).pathname);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'kya-model.json'), `${JSON.stringify(model)}\n`);
  console.log(`trained on ${train.length} samples (${examples.length} windows/views, ${positives} injection) of ${dataset.length}; ` +
    `weights sha256 ${model.weightsSha256.slice(0, 16)}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
