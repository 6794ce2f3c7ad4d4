/**
 * Logistic regression by AdaGrad over the training windows, classes balanced. Deterministic: a fixed seed drives
 * the order of the examples, so the same inputs give the same weights, byte for byte.
 */
import { createHash } from 'node:crypto';
import type { ModelFile } from '../model.ts';
import { DEFAULT_SEED, seededRandom, type Sample } from './dataset.ts';
import { trainingExamples } from './examples.ts';

export interface TrainingOptions {
  version: string;
  hashBits: number;
  windowChars: number;
  strideChars: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface TrainedModel {
  file: ModelFile & { weightsSha256: string };
  windows: number;
  injectionWindows: number;
}

export function trainModel(samples: readonly Sample[], options: TrainingOptions): TrainedModel {
  const seed = options.seed ?? DEFAULT_SEED;
  const examples = trainingExamples(samples, options);
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  // Balanced classes: each class weighs as much in the loss whatever its count.
  const classWeight = [examples.length / (2 * negatives), examples.length / (2 * positives)];

  const size = 1 << options.hashBits;
  const weights = new Float64Array(size);
  const squaredGradients = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasSquared = 1e-8;
  const random = seededRandom(seed);
  const order = examples.map((_, i) => i);
  const { learningRate, l2 } = options;

  for (let epoch = 0; epoch < options.epochs; epoch++) {
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
        const g = error * values[k] + l2 * weights[b];
        squaredGradients[b] += g * g;
        weights[b] -= (learningRate * g) / Math.sqrt(squaredGradients[b]);
      }
      biasSquared += error * error;
      bias -= (learningRate * error) / Math.sqrt(biasSquared);
    }
    options.log?.(`epoch ${epoch + 1}/${options.epochs}: mean loss ${(loss / examples.length).toFixed(4)}`);
  }

  const bytes = Buffer.from(Float32Array.from(weights).buffer);
  return {
    file: {
      format: 'kyx-kya-logreg',
      version: options.version,
      hashBits: options.hashBits,
      windowChars: options.windowChars,
      strideChars: options.strideChars,
      bias: Math.fround(bias),
      trainedOn: { samples: samples.length, seed, epochs: options.epochs },
      weightsSha256: createHash('sha256').update(bytes).digest('hex'),
      weights: bytes.toString('base64'),
    },
    windows: examples.length,
    injectionWindows: positives,
  };
}
