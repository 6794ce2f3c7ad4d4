/**
 * The embedded injection model, a cascade judged in overlapping windows (so that a long prompt is as easy to
 * judge as a short one, and an instruction planted in a long benign document is not diluted by it):
 *
 * 1. the ranker, a logistic regression over cheap features summed by blocks, scores every window of every view
 *    of the prompt in one pass over each view;
 * 2. the judges, networks with one hidden layer over an embedding of rich features and measures of structure
 *    (see features.ts), read the few windows the ranker scores highest; the highest of their mean log-odds,
 *    calibrated on the validation split, give the prompt's injection score.
 *
 * The ranker only has to put the window holding an injection among the few the judge reads, which cheap
 * features do as well as rich ones; the judge's cost no longer grows with the prompt.
 */
import { readFileSync } from 'node:fs';
import {
  createJudgeFeatures,
  createRankerFeatures,
  judgeFeatures,
  rankerFeatures,
  STRUCTURE_MEASURES,
  type Vocabulary,
} from './features.ts';

export interface ModelFile {
  format: 'kyx-kya-cascade';
  version: string;
  windowChars: number;
  strideChars: number;
  judgedWindows: number;
  /** Weights as signed bytes (w = q / scale), little-endian, base64. */
  ranker: { hashBits: number; bias: number; scale: number; weights: string };
  /**
   * Networks of one shape trained alike from different initial weights; a window's log-odds are their mean, which
   * cancels much of what any one of them learnt by chance.
   */
  judges: JudgeFile[];
  /** A bit per word hash (2^bits of them), Uint32 little-endian, base64. */
  vocabulary: { bits: number; words: string };
  /**
   * Platt scaling of the judge's log-odds, fitted on the validation split: injectionScore = σ(slope · z + intercept),
   * so that the score reads as a probability (under equal priors) rather than a network's overconfident output.
   */
  calibration: { slope: number; intercept: number };
  trainedOn: { samples: number; windows: number; seed: number };
}

export interface JudgeFile {
  hashBits: number;
  dimensions: number;
  hidden: number;
  embeddingScale: number;
  /** Signed bytes, one row of `dimensions` per bucket, base64. */
  embeddings: string;
  /** Float32 little-endian, base64: hidden × dimensions, hidden × structure measures, hidden, hidden. */
  inputWeights: string;
  structureWeights: string;
  hiddenBias: string;
  outputWeights: string;
  outputBias: number;
}

export interface InjectionModel {
  /** Engine name and version, as reported in `screening.engine`. */
  engine: string;
  /**
   * Probability that the texts (the views of one prompt, as written: the features fold case themselves) carry an
   * injection. An engine that judges in another thread (an operator's ONNX model, onnx.ts) answers with a promise.
   */
  score(texts: readonly string[]): number | Promise<number>;
}

/** A model that judges on the calling thread: the embedded cascade (the highest the judge gives the windows the ranker ranks highest). */
export interface SyncInjectionModel extends InjectionModel {
  score(texts: readonly string[]): number;
}

/**
 * Weights as signed bytes, w ≈ q / scale, a step being 1/127 of the largest weight: a quarter of the memory of
 * float32, so that the weights a long prompt reads stay in the cache.
 */
export function quantise(weights: Float32Array): { values: Int8Array; scale: number } {
  let largest = 0;
  for (const w of weights) largest = Math.max(largest, Math.abs(w));
  const scale = largest > 0 ? 127 / largest : 1;
  return { values: Int8Array.from(weights, (w) => Math.round(w * scale)), scale: Math.fround(scale) };
}

export const encodeFloats = (values: Float32Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');

function decode<T extends Int8Array | Float32Array | Uint32Array>(base64: string, Type: { new (buffer: ArrayBuffer): T; BYTES_PER_ELEMENT: number }, length: number, what: string): T {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength !== length * Type.BYTES_PER_ELEMENT) throw new Error(`KYA model: ${what} has ${bytes.byteLength} bytes, expected ${length * Type.BYTES_PER_ELEMENT}`);
  return new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Embedding rows of signed bytes, packed two to a 32-bit word as 16-bit lanes holding w + 128: one integer
 * addition then sums two dimensions, and a lane cannot carry into the next before 257 rows (255 · 257 < 2^16).
 */
function packRows(rows: Int8Array, dimensions: number): Int32Array {
  if (dimensions % 2 !== 0) throw new Error('KYA model: embedding dimensions must be even');
  const packed = new Int32Array(rows.length / 2);
  for (let k = 0; k < packed.length; k++) packed[k] = (rows[2 * k] + 128) | ((rows[2 * k + 1] + 128) << 16);
  return packed;
}

const ROWS_PER_LANE_SUM = 256;

/** out[j] = the sum over the rows `buckets[0..length)` of dimension j, from rows packed by `packRows`. */
function sumRows(packed: Int32Array, buckets: Int32Array, length: number, dimensions: number, out: Int32Array, lanes: Int32Array): void {
  const words = dimensions / 2;
  out.fill(0);
  for (let start = 0; start < length; start += ROWS_PER_LANE_SUM) {
    const end = Math.min(length, start + ROWS_PER_LANE_SUM);
    lanes.fill(0);
    for (let k = start; k < end; k++) {
      const row = buckets[k] * words;
      for (let j = 0; j < words; j++) lanes[j] += packed[row + j];
    }
    const offset = 128 * (end - start);
    for (let j = 0; j < words; j++) {
      out[2 * j] += (lanes[j] & 0xffff) - offset;
      out[2 * j + 1] += (lanes[j] >>> 16) - offset;
    }
  }
}

/** The windows with the highest ranker scores so far, at most `capacity` of them, as (score, text, start). */
class BestWindows {
  readonly scores: Float64Array;
  readonly texts: string[];
  readonly starts: Int32Array;
  kept = 0;
  /** The score a window has to beat to be kept: the lowest kept once full. */
  floor = -Infinity;
  private lowest = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.texts = new Array<string>(capacity).fill('');
    this.starts = new Int32Array(capacity);
  }

  add(score: number, text: string, start: number): void {
    const at = this.kept < this.capacity ? this.kept++ : this.lowest;
    this.scores[at] = score;
    this.texts[at] = text;
    this.starts[at] = start;
    if (this.kept < this.capacity) return;
    this.lowest = 0;
    for (let k = 1; k < this.capacity; k++) if (this.scores[k] < this.scores[this.lowest]) this.lowest = k;
    this.floor = this.scores[this.lowest];
  }

  /** Forgets every window (and the texts they hold). */
  clear(): void {
    this.kept = 0;
    this.floor = -Infinity;
    this.texts.fill('');
  }
}

/** The cascade without its calibration: the judge's highest log-odds over the windows it reads. */
export interface Cascade {
  engine: string;
  logit(texts: readonly string[]): number;
}

interface JudgeNetwork {
  embeddings: Int32Array;
  outputBias: number;
  /** Log-odds from a window's summed embedding rows (`length` features) and its measures of structure. */
  logit(embedded: Int32Array, length: number, structure: Float32Array): number;
}

function readJudge(judge: JudgeFile, mask: number): JudgeNetwork {
  const { dimensions: H, hidden: M } = judge;
  const S = STRUCTURE_MEASURES;
  const embeddings = packRows(decode(judge.embeddings, Int8Array, (mask + 1) * H, 'judge embeddings'), H);
  const inputWeights = decode(judge.inputWeights, Float32Array, M * H, 'judge input weights');
  const structureWeights = decode(judge.structureWeights, Float32Array, M * S, 'judge structure weights');
  const hiddenBias = decode(judge.hiddenBias, Float32Array, M, 'judge hidden bias');
  const outputWeights = decode(judge.outputWeights, Float32Array, M, 'judge output weights');
  return {
    embeddings,
    outputBias: judge.outputBias,
    logit(embedded, length, structure) {
      const norm = 1 / (judge.embeddingScale * Math.sqrt(Math.max(1, length)));
      let z = judge.outputBias;
      for (let m = 0; m < M; m++) {
        let s = hiddenBias[m];
        for (let j = 0; j < H; j++) s += inputWeights[m * H + j] * embedded[j] * norm;
        for (let j = 0; j < S; j++) s += structureWeights[m * S + j] * structure[j];
        if (s > 0) z += outputWeights[m] * s;
      }
      return z;
    },
  };
}

export function createCascade(file: ModelFile): Cascade {
  if (file.format !== 'kyx-kya-cascade') throw new Error(`unknown KYA model format ${String(file.format)}`);
  const { windowChars, strideChars, judgedWindows, ranker, judges } = file;
  if (windowChars % strideChars !== 0) throw new Error('KYA model window must be a whole number of strides');
  if (judges.length === 0 || judges.some((j) => j.hashBits !== judges[0].hashBits || j.dimensions !== judges[0].dimensions)) {
    throw new Error('KYA model needs at least one judge, all reading the same features');
  }
  const perWindow = windowChars / strideChars;
  const rankerMask = (1 << ranker.hashBits) - 1;
  const rankerWeights = decode(ranker.weights, Int8Array, rankerMask + 1, 'ranker weights');
  const H = judges[0].dimensions;
  const judgeMask = (1 << judges[0].hashBits) - 1;
  const networks = judges.map((judge) => readJudge(judge, judgeMask));
  const vocabulary: Vocabulary = { bits: decode(file.vocabulary.words, Uint32Array, Math.max(1, 2 ** file.vocabulary.bits / 32), 'vocabulary'), mask: 2 ** file.vocabulary.bits - 1 };

  const ranked = createRankerFeatures();
  const judged = createJudgeFeatures();
  const embedded = new Int32Array(H);
  const laneSums = new Int32Array(H / 2);
  const best = new BestWindows(judgedWindows);

  /** Ranks the windows of one text, keeping those among the best so far. */
  const rank = (text: string) => {
    const n = text.length;
    rankerFeatures(text, rankerMask, strideChars, ranked, rankerWeights);
    const { blockSums, blockCounts, blocks } = ranked;
    const { bias, scale } = ranker;
    // Sliding sums over `perWindow` blocks (the whole text when it is no longer than a window).
    const span = n <= windowChars ? blocks : perWindow;
    let sum = 0;
    let count = 0;
    for (let b = 0; b < blocks; b++) {
      sum += blockSums[b];
      count += blockCounts[b];
      if (b >= span) {
        sum -= blockSums[b - span];
        count -= blockCounts[b - span];
      }
      if (b < span - 1) continue;
      const z = bias + sum / (scale * Math.sqrt(Math.max(1, count)));
      if (z > best.floor) best.add(z, text, (b - span + 1) * strideChars);
    }
  };

  /** The judges' mean log-odds for one window. */
  const judgeWindow = (window: string): number => {
    judgeFeatures(window, judgeMask, vocabulary, judged);
    const { buckets, length, structure } = judged;
    let sum = 0;
    for (const network of networks) {
      sumRows(network.embeddings, buckets, length, H, embedded, laneSums);
      sum += network.logit(embedded, length, structure);
    }
    return sum / networks.length;
  };

  return {
    engine: `kyx-kya-cascade/${file.version}`,
    logit(texts) {
      best.clear();
      for (const text of texts) if (text.length > 0) rank(text);
      let z = best.kept === 0 ? networks.reduce((sum, network) => sum + network.outputBias, 0) / networks.length : -Infinity;
      for (let k = 0; k < best.kept; k++) {
        z = Math.max(z, judgeWindow(best.texts[k].slice(best.starts[k], best.starts[k] + windowChars)));
      }
      best.clear();
      return z;
    },
  };
}

export function createModel(file: ModelFile): SyncInjectionModel {
  const cascade = createCascade(file);
  const { slope, intercept } = file.calibration;
  if (!(slope > 0)) throw new Error('KYA model calibration slope must be positive (the score must rise with the log-odds)');
  return { engine: cascade.engine, score: (texts) => sigmoid(slope * cascade.logit(texts) + intercept) };
}

const DEFAULT_MODEL_URL = new URL('./model/kya-model.json', import.meta.url);

/** The committed model, read once. */
let committed: SyncInjectionModel | undefined;
export function loadEmbeddedModel(): SyncInjectionModel {
  committed ??= createModel(JSON.parse(readFileSync(DEFAULT_MODEL_URL, 'utf8')) as ModelFile);
  return committed;
}
