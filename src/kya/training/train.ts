/**
 * Trains the two models of the screener on the training samples, deterministically (a fixed seed drives the
 * initial weights and the order of the examples, so the same inputs give the same model, byte for byte):
 *
 * - the ranker, a logistic regression over the cheap features of whole windows, which only has to rank the
 *   windows of a long prompt so that the one holding an injection is among the few the judge reads;
 * - the judge, a network with one hidden layer over an embedding of the rich features of a window and its
 *   measures of structure, which gives the injection score.
 *
 * Both by AdaGrad with classes balanced: each class weighs as much in the loss whatever its count.
 */
import { STRUCTURE_MEASURES, wordHashes, type Vocabulary } from '../features.ts';
import { createCascade, encodeFloats, quantise, type ModelFile } from '../model.ts';
import { normalisePrompt } from '../normalise.ts';
import { DEFAULT_SEED, seededRandom, shuffle, type Sample } from './dataset.ts';
import { judgeExamples, labelledWindows, rankerExamples, type JudgeExample, type RankerExample, type WindowParams } from './examples.ts';

export interface TrainingOptions extends WindowParams {
  version: string;
  /** How many windows of a prompt, the ranker's highest, the judge reads. */
  judgedWindows: number;
  ranker: { hashBits: number; epochs: number; learningRate: number; l2: number };
  /** `count` judges of one shape, each from its own initial weights and order of examples. */
  judge: { hashBits: number; dimensions: number; hidden: number; epochs: number; learningRate: number; count: number };
  vocabularyBits: number;
  seed?: number;
  log?: (line: string) => void;
}

const classWeights = (examples: ReadonlyArray<{ label: 0 | 1 }>): [number, number] => {
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  return [examples.length / (2 * Math.max(1, negatives)), examples.length / (2 * Math.max(1, positives))];
};

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function trainRanker(examples: readonly RankerExample[], options: TrainingOptions['ranker'], seed: number): { bias: number; weights: Float32Array } {
  const weights = new Float64Array(1 << options.hashBits);
  const squaredGradients = new Float64Array(weights.length).fill(1e-8);
  let bias = 0;
  let biasSquared = 1e-8;
  const classWeight = classWeights(examples);
  const random = seededRandom(seed);
  const order = examples.map((_, i) => i);
  const { learningRate, l2 } = options;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random);
    for (const index of order) {
      const { buckets, values, label } = examples[index];
      let z = bias;
      for (let k = 0; k < buckets.length; k++) z += weights[buckets[k]] * values[k];
      const error = classWeight[label] * (sigmoid(z) - label);
      for (let k = 0; k < buckets.length; k++) {
        const b = buckets[k];
        const g = error * values[k] + l2 * weights[b];
        squaredGradients[b] += g * g;
        weights[b] -= (learningRate * g) / Math.sqrt(squaredGradients[b]);
      }
      biasSquared += error * error;
      bias -= (learningRate * error) / Math.sqrt(biasSquared);
    }
  }
  return { bias, weights: Float32Array.from(weights) };
}

export interface JudgeWeights {
  dimensions: number;
  hidden: number;
  /** One row of `dimensions` per bucket. */
  embeddings: Float32Array;
  /** hidden × dimensions. */
  inputWeights: Float32Array;
  /** hidden × STRUCTURE_MEASURES. */
  structureWeights: Float32Array;
  hiddenBias: Float32Array;
  outputWeights: Float32Array;
  outputBias: number;
}

/** A standard normal deviate from two uniform ones (Box–Muller). */
const gaussian = (random: () => number) => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());

export function trainJudge(examples: readonly JudgeExample[], options: TrainingOptions['judge'], seed: number): JudgeWeights {
  const { dimensions: H, hidden: M, learningRate } = options;
  const S = STRUCTURE_MEASURES;
  const rows = 1 << options.hashBits;
  const random = seededRandom(seed);
  const embeddings = Float32Array.from({ length: rows * H }, () => gaussian(random) * 0.1);
  const inputWeights = Float32Array.from({ length: M * H }, () => gaussian(random) * Math.sqrt(2 / H));
  const structureWeights = Float32Array.from({ length: M * S }, () => gaussian(random) * 0.1);
  const hiddenBias = new Float32Array(M);
  const outputWeights = Float32Array.from({ length: M }, () => gaussian(random) * Math.sqrt(1 / M));
  let outputBias = 0;
  // AdaGrad's sums of squared gradients: per element, but one per embedding row (rows are many and sparse).
  const rowSquares = new Float32Array(rows).fill(1e-6);
  const inputSquares = new Float32Array(M * H).fill(1e-6);
  const structureSquares = new Float32Array(M * S).fill(1e-6);
  const hiddenSquares = new Float32Array(M).fill(1e-6);
  const outputSquares = new Float32Array(M).fill(1e-6);
  let outputBiasSquare = 1e-6;
  const embedded = new Float32Array(H);
  const activation = new Float32Array(M);
  const embeddedGradient = new Float32Array(H);
  const classWeight = classWeights(examples);
  const order = examples.map((_, i) => i);
  const step = (value: number, gradient: number, squares: Float32Array, at: number) => {
    squares[at] += gradient * gradient;
    return value - (learningRate * gradient) / Math.sqrt(squares[at]);
  };

  for (let epoch = 0; epoch < options.epochs; epoch++) {
    shuffle(order, random);
    for (const index of order) {
      const { buckets, values, label, structure } = examples[index];
      embedded.fill(0);
      for (let k = 0; k < buckets.length; k++) {
        const row = buckets[k] * H;
        for (let j = 0; j < H; j++) embedded[j] += embeddings[row + j] * values[k];
      }
      let z = outputBias;
      for (let m = 0; m < M; m++) {
        let s = hiddenBias[m];
        for (let j = 0; j < H; j++) s += inputWeights[m * H + j] * embedded[j];
        for (let j = 0; j < S; j++) s += structureWeights[m * S + j] * structure[j];
        activation[m] = s > 0 ? s : 0;
        z += outputWeights[m] * activation[m];
      }
      const dz = classWeight[label] * (sigmoid(z) - label);
      embeddedGradient.fill(0);
      for (let m = 0; m < M; m++) {
        const da = activation[m] > 0 ? dz * outputWeights[m] : 0;
        outputWeights[m] = step(outputWeights[m], dz * activation[m], outputSquares, m);
        if (da === 0) continue;
        for (let j = 0; j < H; j++) {
          embeddedGradient[j] += da * inputWeights[m * H + j];
          inputWeights[m * H + j] = step(inputWeights[m * H + j], da * embedded[j], inputSquares, m * H + j);
        }
        for (let j = 0; j < S; j++) structureWeights[m * S + j] = step(structureWeights[m * S + j], da * structure[j], structureSquares, m * S + j);
        hiddenBias[m] = step(hiddenBias[m], da, hiddenSquares, m);
      }
      outputBiasSquare += dz * dz;
      outputBias -= (learningRate * dz) / Math.sqrt(outputBiasSquare);
      for (let k = 0; k < buckets.length; k++) {
        const row = buckets[k] * H;
        let squared = 0;
        for (let j = 0; j < H; j++) squared += (embeddedGradient[j] * values[k]) ** 2;
        rowSquares[buckets[k]] += squared / H;
        const rate = learningRate / Math.sqrt(rowSquares[buckets[k]]);
        for (let j = 0; j < H; j++) embeddings[row + j] -= rate * embeddedGradient[j] * values[k];
      }
    }
  }
  return { dimensions: H, hidden: M, embeddings, inputWeights, structureWeights, hiddenBias, outputWeights, outputBias };
}

/** The words that occur at least twice in the benign training texts (as written, not encoded). */
export function buildVocabulary(samples: readonly Sample[], bits: number): Vocabulary {
  const counts = new Map<number, number>();
  for (const sample of samples) {
    if (sample.label !== 0 || sample.encoding) continue;
    for (const hash of wordHashes(sample.text)) counts.set(hash, (counts.get(hash) ?? 0) + 1);
  }
  const mask = (1 << bits) - 1;
  const vocabulary: Vocabulary = { bits: new Uint32Array(Math.max(1, (1 << bits) >>> 5)), mask };
  for (const [hash, count] of counts) {
    if (count < 2) continue;
    const index = hash & mask;
    vocabulary.bits[index >>> 5] |= 1 << (index & 31);
  }
  return vocabulary;
}

/** Trains both models on `samples` and returns the model file. */
export function trainModel(samples: readonly Sample[], options: TrainingOptions): ModelFile {
  const seed = options.seed ?? DEFAULT_SEED;
  const windows = labelledWindows(samples, options);
  const vocabulary = buildVocabulary(samples, options.vocabularyBits);
  options.log?.(`${samples.length} samples, ${windows.length} windows (${windows.filter((w) => w.label === 1).length} injection)`);
  const ranker = trainRanker(rankerExamples(windows, options, options.ranker.hashBits), options.ranker, seed);
  options.log?.('ranker trained');
  const examples = judgeExamples(windows, options.judge.hashBits, vocabulary);
  const judges = Array.from({ length: options.judge.count }, (_, k) => {
    const judge = trainJudge(examples, options.judge, seed + 1 + k);
    options.log?.(`judge ${k + 1} of ${options.judge.count} trained`);
    return judge;
  });
  const rankerWeights = quantise(ranker.weights);
  return {
    format: 'kyx-kya-cascade',
    version: options.version,
    windowChars: options.windowChars,
    strideChars: options.strideChars,
    judgedWindows: options.judgedWindows,
    ranker: { hashBits: options.ranker.hashBits, bias: Math.fround(ranker.bias), scale: rankerWeights.scale, weights: Buffer.from(rankerWeights.values.buffer).toString('base64') },
    judges: judges.map((judge) => {
      const embeddings = quantise(judge.embeddings);
      return {
        hashBits: options.judge.hashBits,
        dimensions: judge.dimensions,
        hidden: judge.hidden,
        embeddingScale: embeddings.scale,
        embeddings: Buffer.from(embeddings.values.buffer).toString('base64'),
        inputWeights: encodeFloats(judge.inputWeights),
        structureWeights: encodeFloats(judge.structureWeights),
        hiddenBias: encodeFloats(judge.hiddenBias),
        outputWeights: encodeFloats(judge.outputWeights),
        outputBias: Math.fround(judge.outputBias),
      };
    }),
    vocabulary: { bits: Math.log2(vocabulary.mask + 1), words: Buffer.from(vocabulary.bits.buffer).toString('base64') },
    calibration: { slope: 1, intercept: 0 },
    trainedOn: { samples: samples.length, windows: windows.length, seed },
  };
}

/**
 * Platt scaling: the slope and intercept of a logistic regression of the labels of `samples` (classes weighing
 * equally) on the cascade's log-odds, by Newton's method with backtracking. Fitted on samples training never saw,
 * it turns the judge's overconfident log-odds into a probability with the same ranking.
 */
export function fitCalibration(file: ModelFile, samples: readonly Sample[]): ModelFile['calibration'] {
  const cascade = createCascade(file);
  const logits = samples.map((s) => cascade.logit(normalisePrompt(s.text).views.map((v) => v.cased)));
  const classWeight = classWeights(samples);
  const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
  const loss = (a: number, b: number) => {
    let sum = 0;
    for (let k = 0; k < samples.length; k++) {
      const z = a * logits[k] + b;
      sum += classWeight[samples[k].label] * (samples[k].label === 1 ? softplus(-z) : softplus(z));
    }
    return sum;
  };
  let slope = 1;
  let intercept = 0;
  let current = loss(slope, intercept);
  for (let iteration = 0; iteration < 100; iteration++) {
    let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
    for (let k = 0; k < samples.length; k++) {
      const w = classWeight[samples[k].label];
      const p = sigmoid(slope * logits[k] + intercept);
      const r = w * (p - samples[k].label);
      const c = w * p * (1 - p) + 1e-9;
      ga += r * logits[k];
      gb += r;
      haa += c * logits[k] * logits[k];
      hab += c * logits[k];
      hbb += c;
    }
    const determinant = haa * hbb - hab * hab;
    if (!(determinant > 0)) break;
    const da = (hbb * ga - hab * gb) / determinant;
    const db = (haa * gb - hab * ga) / determinant;
    let step = 1;
    while (step > 1e-6 && !(loss(slope - step * da, intercept - step * db) < current)) step /= 2;
    if (step <= 1e-6) break;
    slope -= step * da;
    intercept -= step * db;
    const next = loss(slope, intercept);
    if (current - next < 1e-9 * current) break;
    current = next;
  }
  return { slope: Math.fround(slope), intercept: Math.fround(intercept) };
}
