/**
 * The embedded injection classifier: logistic regression over hashed character 3–5-grams and word 1–2-grams,
 * judged in overlapping windows so that a long prompt is as easy to judge as a short one and an injection
 * hidden in a long benign document is not diluted. Training (scripts/train-kya.ts) and scoring share
 * `visitFeatures`, so the features can never drift apart.
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
  /** Probability that the texts (the views of one prompt) carry an injection: the highest over views and windows. */
  score(texts: readonly string[]): number;
}

export const FEATURE_PARAMS = { hashBits: 18, windowChars: 512, strideChars: 256 } as const;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SEED = 0x9e3779b9;
const BIGRAM_SEED = 0x85ebca6b;

function isWordChar(code: number): boolean {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);
  // Outside ASCII everything but punctuation and spaces counts as part of a word (letters of every script).
  return !((code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xff0f) || code === 0xa0);
}

/**
 * Calls `visit(bucket, position)` for every feature of `text`: character 3-, 4- and 5-grams (at their first
 * character) and words and word pairs (at their last character).
 */
export function visitFeatures(text: string, mask: number, visit: (bucket: number, position: number) => void): void {
  const n = text.length;
  let word = WORD_SEED;
  let wordLength = 0;
  let previousWord = 0;
  for (let i = 0; i < n; i++) {
    let h = FNV_OFFSET;
    const end = Math.min(n, i + 5);
    for (let k = i; k < end; k++) {
      h = Math.imul(h ^ text.charCodeAt(k), FNV_PRIME);
      if (k - i >= 2) visit((h ^ (h >>> 15)) & mask, i);
    }
    const code = text.charCodeAt(i);
    if (isWordChar(code)) {
      word = Math.imul(word ^ code, FNV_PRIME);
      wordLength++;
    }
    if (wordLength > 0 && (i === n - 1 || !isWordChar(code))) {
      const unigram = Math.imul(word ^ (word >>> 13), 0x5bd1e995);
      visit((unigram ^ (unigram >>> 15)) & mask, i);
      if (previousWord !== 0) {
        const bigram = Math.imul(previousWord ^ Math.imul(word, BIGRAM_SEED), 0x5bd1e995);
        visit((bigram ^ (bigram >>> 15)) & mask, i);
      }
      previousWord = word;
      word = WORD_SEED;
      wordLength = 0;
    }
  }
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

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function createModel(file: ModelFile): InjectionModel {
  if (file.format !== 'kyx-kya-logreg') throw new Error(`unknown KYA model format ${String(file.format)}`);
  const bytes = Buffer.from(file.weights, 'base64');
  const weights = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const mask = (1 << file.hashBits) - 1;
  if (weights.length !== mask + 1) throw new Error('KYA model weights do not match hashBits');
  const { windowChars, strideChars, bias } = file;
  // Per-stride block sums: a window is two adjacent blocks, so a 32,000-character prompt is one pass.
  let blockSums = new Float64Array(64);
  let blockCounts = new Float64Array(64);

  const scoreText = (text: string): number => {
    const n = text.length;
    if (n === 0) return sigmoid(bias);
    const blocks = Math.ceil(n / strideChars) + 1;
    if (blocks > blockSums.length) {
      blockSums = new Float64Array(blocks);
      blockCounts = new Float64Array(blocks);
    } else {
      blockSums.fill(0, 0, blocks);
      blockCounts.fill(0, 0, blocks);
    }
    const sums = blockSums;
    const counts = blockCounts;
    if (n <= windowChars) {
      let sum = 0;
      let count = 0;
      visitFeatures(text, mask, (bucket) => {
        sum += weights[bucket];
        count++;
      });
      return sigmoid(bias + sum / Math.sqrt(Math.max(1, count)));
    }
    visitFeatures(text, mask, (bucket, position) => {
      const block = (position / strideChars) | 0;
      sums[block] += weights[bucket];
      counts[block]++;
    });
    let best = -Infinity;
    const perWindow = windowChars / strideChars;
    const blockTotal = Math.ceil(n / strideChars);
    for (let first = 0; first + perWindow <= blockTotal; first++) {
      let sum = 0;
      let count = 0;
      for (let b = first; b < first + perWindow; b++) {
        sum += sums[b];
        count += counts[b];
      }
      const z = bias + sum / Math.sqrt(Math.max(1, count));
      if (z > best) best = z;
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
