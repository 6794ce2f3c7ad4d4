/**
 * The embedded injection classifier: logistic regression over hashed features of one pass over the text's UTF-16
 * code units — character 3- and 5-grams (runs of one space or punctuation unit counted once), words and word pairs, and the shapes of whitespace-separated tokens (case,
 * digits and punctuation classes: "aAa", "a.](" — what gibberish adversarial suffixes are made of). Judged in
 * overlapping windows so that a long prompt is as easy to judge as a short one and an injection hidden in a long
 * benign document is not diluted. Training (scripts/train-kya.ts) and scoring share `extractFeatures`, so the
 * features can never drift apart.
 */
import { readFileSync } from 'node:fs';

export interface ModelFile {
  format: 'kyx-kya-logreg';
  version: string;
  hashBits: number;
  windowChars: number;
  strideChars: number;
  bias: number;
  /** Float32 weights, little-endian, base64. */
  weights: string;
  trainedOn: { samples: number; seed: number; epochs: number };
}

export interface InjectionModel {
  /** Engine name and version, as reported in `screening.engine`. */
  engine: string;
  /**
   * Probability that the texts (the views of one prompt, as written or lower-cased: the model folds case itself)
   * carry an injection: the highest over views and windows.
   */
  score(texts: readonly string[]): number;
}

export const FEATURE_PARAMS = { hashBits: 18, windowChars: 192, strideChars: 64 } as const;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SEED = 0x9e3779b9;
const BIGRAM_SEED = 0x85ebca6b;
const SHAPE_SEED = 0x27d4eb2f;
const SHAPE_PAIR_SEED = 0x165667b1;
/** Longer shapes say nothing more; capping keeps "aaaa…" runs of any length one feature. */
const MAX_SHAPE_CLASSES = 6;

const finish = (h: number) => {
  const m = Math.imul(h ^ (h >>> 13), 0x5bd1e995);
  return m ^ (m >>> 15);
};

const WORD = 1;
const UPPER = 2;
const DIGIT = 4;
const SPACE = 8;

/**
 * Per UTF-16 code unit: its lower-case form and its class, computed once. Lower-casing by table keeps offsets
 * (every unit maps to one unit) and costs one load per character.
 */
const LOWER = new Uint16Array(0x10000);
const CLASS = new Uint8Array(0x10000);
for (let code = 0; code < 0x10000; code++) {
  const ch = String.fromCharCode(code);
  const lower = code >= 0xd800 && code <= 0xdfff ? ch : ch.toLowerCase();
  LOWER[code] = lower.length === 1 ? lower.charCodeAt(0) : code;
  let cls = 0;
  if (code < 0x80) {
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39)) cls |= WORD;
    if (code >= 0x41 && code <= 0x5a) cls |= UPPER;
    if (code >= 0x30 && code <= 0x39) cls |= DIGIT;
    if (code <= 0x20) cls |= SPACE;
  } else {
    // Outside ASCII everything but punctuation and spaces counts as part of a word (letters of every script).
    const punctuationOrSpace = (code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xff0f) || code === 0xa0;
    if (!punctuationOrSpace) cls |= WORD;
    if (LOWER[code] !== code) cls |= UPPER;
    if (code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029) cls |= SPACE;
  }
  CLASS[code] = cls;
}

/** Shape class of a code unit: a (lower letter), A (upper), 0 (digit), the unit itself for punctuation; ASCII. */
function shapeClass(code: number, cls: number): number {
  if (cls & DIGIT) return 0x30;
  if (cls & UPPER) return 0x41;
  if (cls & WORD) return 0x61;
  return code < 0x80 ? code : 0x2a;
}


/**
 * Features of a text by blocks of offsets ([b·blockChars, (b+1)·blockChars)): `blockCounts[b]` features were
 * found in block b. Without weights, `buckets[k]` for k < length are all the features in the order of the offsets
 * they are found at; with weights, `blockSums[b]` is the sum of the weights of block b's features and `buckets`
 * only serves as scratch for one block (a long prompt's features never leave the cache). Reused between calls.
 */
export interface Features {
  buckets: Int32Array;
  blockCounts: Int32Array;
  blockSums: Float64Array;
  blocks: number;
  length: number;
}

export function createFeatures(): Features {
  return { buckets: new Int32Array(1024), blockCounts: new Int32Array(16), blockSums: new Float64Array(16), blocks: 0, length: 0 };
}

/** At most this many features per code unit: two character n-grams, a word, a word pair, a shape, a shape pair. */
const FEATURES_PER_UNIT = 6;

function closeBlock(out: Features, weights: Int8Array | undefined, from: number, to: number, block: number): void {
  out.blockCounts[block] = to - from;
  if (!weights) return;
  const buckets = out.buckets;
  let sum = 0;
  for (let k = from; k < to; k++) sum = (sum + weights[buckets[k]]) | 0;
  out.blockSums[block] = sum;
}

/**
 * Every feature of `text` in one pass over its code units: character 3- and 5-grams of the lower-cased text
 * (at their last unit), words and word pairs (at their last unit), token shapes and shape pairs (at the token's
 * last unit). With `weights` (quantised, see `quantise`), each block's features are summed as soon as the block
 * ends (see `Features`).
 */
export function extractFeatures(text: string, mask: number, blockChars: number, out: Features, weights?: Int8Array): void {
  const n = text.length;
  const capacity = (weights ? Math.min(n, blockChars) : n) * FEATURES_PER_UNIT + 8;
  if (out.buckets.length < capacity) out.buckets = new Int32Array(capacity);
  const blocks = Math.max(1, Math.ceil(n / blockChars));
  if (out.blockCounts.length < blocks) {
    out.blockCounts = new Int32Array(blocks);
    out.blockSums = new Float64Array(blocks);
  }
  const buckets = out.buckets;
  let f = 0;
  let blockFirst = 0;
  let total = 0;
  let block = 0;
  let nextBlockAt = 0;
  // FNV-1a hashes of the 1- to 4-grams ending at the previous kept unit: each n-gram extends one of them.
  let p1 = 0, p2 = 0, p3 = 0, p4 = 0;
  let history = 0;
  let previousUnit = -1;
  let word = WORD_SEED;
  let wordLength = 0;
  let previousWord = 0;
  let shape = SHAPE_SEED;
  let shapeClasses = 0;
  let lastShapeClass = -1;
  let previousShape = 0;
  for (let i = 0; i <= n; i++) {
    if (i === nextBlockAt && i < n) {
      if (i > 0) {
        closeBlock(out, weights, blockFirst, f, block++);
        total += f - blockFirst;
        if (weights) f = 0;
        blockFirst = f;
      }
      nextBlockAt += blockChars;
    }
    // Past the end, one space closes the last word and token (and adds no n-gram).
    const code = i < n ? text.charCodeAt(i) : 0x20;
    const cls = CLASS[code];
    const c0 = LOWER[code];
    // A run of the same space or punctuation unit (table padding, rules of dashes) counts once: otherwise it
    // would outweigh, and dilute, the words of its window.
    const repeated = !(cls & WORD) && c0 === previousUnit && history > 0;
    if (!repeated && i < n) {
      // Character 3- and 5-grams ending here, recorded at their last unit (4-grams added nothing on the
      // validation split and cost a tenth of the pass; their hash still carries the 5-gram's).
      const q5 = Math.imul(p4 ^ c0, FNV_PRIME);
      const q4 = Math.imul(p3 ^ c0, FNV_PRIME);
      const q3 = Math.imul(p2 ^ c0, FNV_PRIME);
      p2 = Math.imul(p1 ^ c0, FNV_PRIME);
      p1 = Math.imul(FNV_OFFSET ^ c0, FNV_PRIME);
      p3 = q3;
      p4 = q4;
      if (history >= 4) {
        buckets[f] = (q3 ^ (q3 >>> 15)) & mask;
        buckets[f + 1] = (q5 ^ (q5 >>> 15)) & mask;
        f += 2;
      } else {
        if (history >= 2) buckets[f++] = (q3 ^ (q3 >>> 15)) & mask;
        history++;
      }
      previousUnit = c0;
    }
    if (cls & WORD) {
      word = Math.imul(word ^ c0, FNV_PRIME);
      wordLength++;
    } else if (wordLength > 0) {
      const unigram = finish(word);
      buckets[f++] = unigram & mask;
      if (previousWord !== 0) {
        buckets[f++] = finish(previousWord ^ Math.imul(word, BIGRAM_SEED)) & mask;
      }
      previousWord = word;
      word = WORD_SEED;
      wordLength = 0;
    }
    if (!(cls & SPACE)) {
      const shapeCode = shapeClass(code, cls);
      if (shapeCode !== lastShapeClass && shapeClasses < MAX_SHAPE_CLASSES) {
        shape = Math.imul(shape ^ shapeCode, FNV_PRIME);
        shapeClasses++;
        lastShapeClass = shapeCode;
      }
    } else if (shapeClasses > 0) {
      const shapeHash = finish(shape ^ shapeClasses);
      buckets[f++] = shapeHash & mask;
      if (previousShape !== 0) {
        buckets[f++] = finish(previousShape ^ Math.imul(shapeHash, SHAPE_PAIR_SEED)) & mask;
      }
      previousShape = shapeHash;
      shape = SHAPE_SEED;
      shapeClasses = 0;
      lastShapeClass = -1;
    }
  }
  closeBlock(out, weights, blockFirst, f, block++);
  out.blocks = block;
  out.length = total + f - blockFirst;
}

/**
 * The windows a text is judged in: [k·stride, k·stride + windowChars) cut at the text's end, for every k whose
 * window reaches past the previous one's end. A text no longer than one window is one window. Training cuts
 * its samples the same way.
 */
export function windowStarts(length: number, windowChars: number, strideChars: number): number[] {
  if (length <= windowChars) return [0];
  const starts: number[] = [];
  const perWindow = windowChars / strideChars;
  const blocks = Math.ceil(length / strideChars);
  for (let first = 0; first + perWindow <= blocks; first++) starts.push(first * strideChars);
  return starts;
}

/**
 * Weights as signed bytes, w ≈ q / scale: a quarter of the memory of float32, so that the weights a long prompt
 * reads stay in the cache and its TLB (the random loads of a 1 MB table cost more than the whole feature pass).
 * A byte step is 1/32 of the largest weight; a window's score moves by about 0.01 in z, summing integers exactly.
 */
function quantise(trained: Float32Array): { weights: Int8Array; scale: number } {
  let largest = 0;
  for (const w of trained) largest = Math.max(largest, Math.abs(w));
  const scale = largest > 0 ? 127 / largest : 1;
  return { weights: Int8Array.from(trained, (w) => Math.round(w * scale)), scale };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function createModel(file: ModelFile): InjectionModel {
  if (file.format !== 'kyx-kya-logreg') throw new Error(`unknown KYA model format ${String(file.format)}`);
  const bytes = Buffer.from(file.weights, 'base64');
  const trained = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const mask = (1 << file.hashBits) - 1;
  if (trained.length !== mask + 1) throw new Error('KYA model weights do not match hashBits');
  const { weights, scale } = quantise(trained);
  const { windowChars, strideChars, bias } = file;
  if (windowChars % strideChars !== 0) throw new Error('KYA model window must be a whole number of strides');
  const perWindow = windowChars / strideChars;
  const features = createFeatures();

  const scoreText = (text: string): number => {
    const n = text.length;
    if (n === 0) return sigmoid(bias);
    extractFeatures(text, mask, strideChars, features, weights);
    const { blockSums, blockCounts, blocks } = features;
    if (n <= windowChars) {
      let sum = 0;
      for (let b = 0; b < blocks; b++) sum += blockSums[b];
      return sigmoid(bias + sum / scale / Math.sqrt(Math.max(1, features.length)));
    }
    let best = -Infinity;
    // Sliding sums over `perWindow` blocks, of the weights and of the feature counts.
    let sum = 0;
    let count = 0;
    for (let b = 0; b < blocks; b++) {
      sum += blockSums[b];
      count += blockCounts[b];
      if (b >= perWindow) {
        sum -= blockSums[b - perWindow];
        count -= blockCounts[b - perWindow];
      }
      if (b >= perWindow - 1) {
        const z = bias + sum / scale / Math.sqrt(Math.max(1, count));
        if (z > best) best = z;
      }
    }
    return sigmoid(best);
  };

  return {
    engine: `kyx-kya-logreg/${file.version}`,
    score(texts) {
      let best = 0;
      for (const text of texts) best = Math.max(best, scoreText(text));
      return best;
    },
  };
}

const DEFAULT_MODEL_URL = new URL('./model/kya-model.json', import.meta.url);

/** The committed model, read once. */
let embedded: InjectionModel | undefined;
export function loadEmbeddedModel(): InjectionModel {
  embedded ??= createModel(JSON.parse(readFileSync(DEFAULT_MODEL_URL, 'utf8')) as ModelFile);
  return embedded;
}
