/**
 * What the KYA models read, each from one pass over a text's UTF-16 code units, lower-cased by table as they are
 * read (every unit maps to one unit, so offsets stay those of the text).
 *
 * - The ranker reads a whole prompt cheaply: its words, summed by blocks of offsets so that a window's sum is
 *   the sum of its blocks.
 * - The judge reads the few windows the ranker ranks highest, richly: character 3- and 5-grams, words (marked
 *   when inside quotation marks) and word pairs, token shapes and shape pairs ("aAa", "a.](": what gibberish
 *   suffixes are made of), CJK characters and character pairs, and the measures of `TextStructure`.
 *
 * Training and scoring call these same functions, so what a model learnt from is what it reads.
 */

import { CodeUnits } from './units.ts';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SEED = 0x9e3779b9;
const QUOTED_WORD_SEED = 0x7f4a7c15;
const BIGRAM_SEED = 0x85ebca6b;
const SHAPE_SEED = 0x27d4eb2f;
const SHAPE_PAIR_SEED = 0x165667b1;
const CJK_SEED = 0x3c6ef372;
const CJK_PAIR_SEED = 0xa54ff53a;
/** Longer shapes say nothing more; capping keeps "aaaa…" runs of any length one feature. */
const MAX_SHAPE_CLASSES = 6;

const finishHash = (h: number) => {
  const m = Math.imul(h ^ (h >>> 13), 0x5bd1e995);
  return m ^ (m >>> 15);
};

/** Classes of a code unit, computed once for the whole BMP. */
const WORD = 1;
const UPPER = 2;
const DIGIT = 4;
const SPACE = 8;
const LETTER = 0x10;
const LATIN = 0x20;
const LOWER_LETTER = 0x40;
const CJK = 0x80;
const OPEN_BRACKET = 0x1000;
const CLOSE_BRACKET = 0x2000;
const NEWLINE = 0x4000;
/** Apostrophes and hyphens join the parts of ordinary words ("don't", "e-mail"): no sign of a glued token. */
const JOINER = 0x8000;

const LOWER = new Uint16Array(0x10000);
const CLASS = new Uint16Array(0x10000);
{
  const letter = /\p{L}/u;
  const latin = /\p{Script=Latin}/u;
  const lowerLetter = /\p{Ll}/u;
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  const classes: Array<[string, number]> = [['([{<', OPEN_BRACKET], [')]}>', CLOSE_BRACKET], ['\n', NEWLINE], ["'’-", JOINER]];
  for (let code = 0; code < 0x10000; code++) {
    const surrogate = code >= 0xd800 && code <= 0xdfff;
    const ch = String.fromCharCode(code);
    const lower = surrogate ? ch : ch.toLowerCase();
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
    if (!surrogate && letter.test(ch)) {
      cls |= LETTER;
      if (latin.test(ch)) cls |= LATIN;
      if (lowerLetter.test(ch)) cls |= LOWER_LETTER;
      if (cjk.test(ch)) cls |= CJK;
    }
    for (const [chars, flag] of classes) if (chars.includes(ch)) cls |= flag;
    CLASS[code] = cls;
  }
}

/** For each quotation mark that opens a quotation, the mark that closes it („ also closes with ”). */
const CLOSING_MARK = new Uint16Array(0x10000);
for (const [open, close] of ['“”', '«»', '„“', '「」', '『』', '‹›', '""', '``', "''"]) CLOSING_MARK[open.charCodeAt(0)] = close.charCodeAt(0);
/** Longest quotation whose words are marked as quoted. */
const MAX_QUOTED_UNITS = 160;
const APOSTROPHE_CODE = 0x27;

/**
 * Marks in `quoted` the units inside a quotation: an opening mark and its closing mark on the same line, at most
 * MAX_QUOTED_UNITS apart (an apostrophe opens only where no letter precedes it and closes only where none
 * follows). A mark that never closes marks nothing: one stray quotation mark must not turn the request after it
 * into a quotation.
 */
function markQuotations(units: Uint16Array, n: number, quoted: Uint8Array): void {
  quoted.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    const open = units[i];
    const closing = CLOSING_MARK[open];
    if (closing === 0 || (open === APOSTROPHE_CODE && i > 0 && CLASS[units[i - 1]] & LETTER)) continue;
    const last = Math.min(n, i + 1 + MAX_QUOTED_UNITS);
    for (let j = i + 1; j < last; j++) {
      const code = units[j];
      if (CLASS[code] & NEWLINE) break;
      if (code !== closing && !(open === 0x201e && code === 0x201d)) continue;
      if (open === APOSTROPHE_CODE && j + 1 < n && CLASS[units[j + 1]] & LETTER) continue;
      quoted.fill(1, i + 1, j);
      i = j;
      break;
    }
  }
}

/** Shape class of a code unit: a (lower letter), A (upper), 0 (digit), the unit itself for ASCII punctuation. */
function shapeClass(code: number, cls: number): number {
  if (cls & DIGIT) return 0x30;
  if (cls & UPPER) return 0x41;
  if (cls & WORD) return 0x61;
  return code < 0x80 ? code : 0x2a;
}

/** The bucket of a hashed feature. */
const bucketOf = (hash: number, mask: number) => (hash ^ (hash >>> 15)) & mask;

/**
 * The ranker's features of a text by blocks of offsets ([b·blockChars, (b+1)·blockChars)): `buckets[k]` for
 * k < length are all the features in the order of the offsets they are found at, `blockCounts[b]` of them were
 * found in block b and, with weights, `blockSums[b]` is the sum of their weights. Reused between calls.
 */
export interface RankerFeatures {
  buckets: Int32Array;
  /** For each feature, the offset past the unit it ends at. */
  ends: Int32Array;
  blockCounts: Int32Array;
  blockSums: Int32Array;
  blocks: number;
  length: number;
}

export function createRankerFeatures(): RankerFeatures {
  return { buckets: new Int32Array(1024), ends: new Int32Array(1024), blockCounts: new Int32Array(16), blockSums: new Int32Array(16), blocks: 0, length: 0 };
}

const rankerUnits = new CodeUnits();
const judgeUnits = new CodeUnits();
let quotedUnits = new Uint8Array(0);

/**
 * Words of the lower-cased text (runs of letters and digits; a CJK character is a word by itself, as those scripts
 * put no spaces between words), each at its last unit. Ranking the windows of a prompt for the judge needs no
 * more: character n-grams or word pairs rank no better (by cross-validation), and cost several times as much.
 */
export function rankerFeatures(text: string, mask: number, blockChars: number, out: RankerFeatures, weights?: Int8Array): void {
  const n = text.length;
  if (out.buckets.length < n) {
    out.buckets = new Int32Array(n);
    out.ends = new Int32Array(n);
  }
  const { buckets, ends } = out;
  const units = rankerUnits.of(text);
  // Locals, not module bindings, in the loop every unit goes through.
  const classes = CLASS;
  const lower = LOWER;
  // The words, with the offset past their end; blocks are counted afterwards, over the words rather than the units.
  let words = 0;
  for (let i = 0; i < n;) {
    let cls = classes[units[i]];
    if ((cls & WORD) === 0) {
      i++;
      continue;
    }
    let word = WORD_SEED;
    if (cls & CJK) {
      word = Math.imul(word ^ lower[units[i++]], FNV_PRIME);
    } else {
      do {
        word = Math.imul(word ^ lower[units[i++]], FNV_PRIME);
        cls = i < n ? classes[units[i]] : 0;
      } while ((cls & (WORD | CJK)) === WORD);
    }
    buckets[words] = finishHash(word) & mask;
    ends[words++] = i;
  }
  const blocks = Math.max(1, Math.ceil(n / blockChars));
  if (out.blockCounts.length < blocks) {
    out.blockCounts = new Int32Array(blocks);
    out.blockSums = new Int32Array(blocks);
  }
  const { blockCounts, blockSums } = out;
  blockCounts.fill(0, 0, blocks);
  if (weights) blockSums.fill(0, 0, blocks);
  // A word belongs to the block of its last unit: block b holds the words ending before (b + 1)·blockChars.
  let block = 0;
  let blockEnd = blockChars;
  for (let k = 0; k < words; k++) {
    while (ends[k] > blockEnd) {
      block++;
      blockEnd += blockChars;
    }
    blockCounts[block]++;
    if (weights) blockSums[block] += weights[buckets[k]];
  }
  out.blocks = blocks;
  out.length = words;
}

/** Known words: a bit per word hash, set for the words of the benign training texts. */
export interface Vocabulary {
  bits: Uint32Array;
  mask: number;
}

const wordHash = finishHash;

export function vocabularyHas(vocabulary: Vocabulary, hash: number): boolean {
  const index = hash & vocabulary.mask;
  return (vocabulary.bits[index >>> 5] >>> (index & 31) & 1) === 1;
}

/**
 * How much a text reads like "token soup" (the suffixes of optimisation attacks) rather than prose or code, per
 * whitespace-separated token: unknown Latin words, punctuation glued between word characters ("ilde]$.There"),
 * lower case running into upper case ("similarlyNow"), tokens of punctuation only, the longest run of unknown
 * tokens; and, of the whole text, lines, unbalanced brackets, the share of letters outside the Latin script and
 * the number of tokens. Each value is scaled to [0, 1].
 */
export const STRUCTURE_MEASURES = 9;

/** The judge's features of one window; reused between calls. */
export interface JudgeFeatures {
  buckets: Int32Array;
  length: number;
  structure: Float32Array;
}

export function createJudgeFeatures(): JudgeFeatures {
  return { buckets: new Int32Array(2048), length: 0, structure: new Float32Array(STRUCTURE_MEASURES) };
}

/** At most this many features per code unit: two n-grams, a word, a word pair, a shape, a shape pair, two CJK. */
const JUDGE_FEATURES_PER_UNIT = 8;

export function judgeFeatures(text: string, mask: number, vocabulary: Vocabulary, out: JudgeFeatures): void {
  const n = text.length;
  if (out.buckets.length < n * JUDGE_FEATURES_PER_UNIT + 8) out.buckets = new Int32Array(n * JUDGE_FEATURES_PER_UNIT + 8);
  const buckets = out.buckets;
  const units = judgeUnits.of(text);
  let f = 0;
  let p1 = 0, p2 = 0, p3 = 0, p4 = 0;
  let history = 0;
  let previousUnit = -1;
  let previousCode = 0x20;
  let previousClass = SPACE;
  let word = WORD_SEED;
  let wordLength = 0;
  let wordIsLatin = false;
  let previousWord = 0;
  let shape = SHAPE_SEED;
  let shapeClasses = 0;
  let lastShapeClass = -1;
  let previousShape = 0;
  if (quotedUnits.length < n) quotedUnits = new Uint8Array(n);
  const quoted = quotedUnits;
  markQuotations(units, n, quoted);
  // Per token: its words, whether one is an unknown Latin word, glued punctuation, case changes.
  let tokenUnits = 0;
  let tokenWordUnits = 0;
  let tokenHasLetter = false;
  let tokenUnknown = false;
  let tokenGlued = false;
  let tokenPunctuationAfterWord = false;
  let tokenMixedCase = false;
  let tokens = 0, lettered = 0, unknown = 0, glued = 0, mixedCase = 0, punctuationTokens = 0, unknownRun = 0, longestUnknownRun = 0;
  let lines = 0, brackets = 0, letters = 0, otherScriptLetters = 0;

  for (let i = 0; i <= n; i++) {
    const code = i < n ? units[i] : 0x20;
    const cls = CLASS[code];
    const c0 = LOWER[code];
    if (i < n) {
      if ((cls & WORD) !== 0 || c0 !== previousUnit) {
        // Character 3- and 5-grams ending here (runs of one repeated space or punctuation unit read once).
        const q5 = Math.imul(p4 ^ c0, FNV_PRIME);
        const q4 = Math.imul(p3 ^ c0, FNV_PRIME);
        const q3 = Math.imul(p2 ^ c0, FNV_PRIME);
        p2 = Math.imul(p1 ^ c0, FNV_PRIME);
        p1 = Math.imul(FNV_OFFSET ^ c0, FNV_PRIME);
        p3 = q3;
        p4 = q4;
        if (history >= 2) buckets[f++] = bucketOf(q3, mask);
        if (history >= 4) buckets[f++] = bucketOf(q5, mask);
        else history++;
        previousUnit = c0;
      }
      if (cls & CJK) buckets[f++] = finishHash(Math.imul(CJK_SEED ^ c0, FNV_PRIME)) & mask;
      if ((cls | previousClass) & CJK && i > 0) {
        buckets[f++] = finishHash(Math.imul(Math.imul(CJK_PAIR_SEED ^ LOWER[previousCode], FNV_PRIME) ^ c0, FNV_PRIME)) & mask;
      }
      if (cls & LETTER) {
        letters++;
        if (!(cls & LATIN)) otherScriptLetters++;
      }
      if (cls & NEWLINE) lines++;
      if (cls & OPEN_BRACKET) brackets++;
      else if (cls & CLOSE_BRACKET) brackets--;
    }
    if (cls & WORD) {
      word = Math.imul(word ^ c0, FNV_PRIME);
      wordLength++;
      if (cls & LATIN) wordIsLatin = true;
    } else if (wordLength > 0) {
      const hash = wordHash(word);
      // What a text quotes is not what it asks.
      const marked = quoted[i - 1] === 1 ? finishHash(hash ^ QUOTED_WORD_SEED) : hash;
      buckets[f++] = marked & mask;
      if (previousWord !== 0) buckets[f++] = finishHash(previousWord ^ Math.imul(marked, BIGRAM_SEED)) & mask;
      previousWord = marked;
      if (wordIsLatin && !vocabularyHas(vocabulary, hash)) tokenUnknown = true;
      word = WORD_SEED;
      wordLength = 0;
      wordIsLatin = false;
    }
    if (!(cls & SPACE)) {
      const shapeCode = shapeClass(code, cls);
      if (shapeCode !== lastShapeClass && shapeClasses < MAX_SHAPE_CLASSES) {
        shape = Math.imul(shape ^ shapeCode, FNV_PRIME);
        shapeClasses++;
        lastShapeClass = shapeCode;
      }
      tokenUnits++;
      if (cls & WORD) {
        if (tokenPunctuationAfterWord) tokenGlued = true;
        tokenWordUnits++;
        tokenPunctuationAfterWord = false;
      } else if (tokenWordUnits > 0 && !(cls & JOINER)) {
        tokenPunctuationAfterWord = true;
      }
      if (cls & LETTER) tokenHasLetter = true;
      if (cls & UPPER && previousClass & LOWER_LETTER) tokenMixedCase = true;
    } else if (tokenUnits > 0) {
      const shapeHash = finishHash(shape ^ shapeClasses);
      buckets[f++] = shapeHash & mask;
      if (previousShape !== 0) buckets[f++] = finishHash(previousShape ^ Math.imul(shapeHash, SHAPE_PAIR_SEED)) & mask;
      previousShape = shapeHash;
      shape = SHAPE_SEED;
      shapeClasses = 0;
      lastShapeClass = -1;
      tokens++;
      if (tokenWordUnits === 0) {
        if (tokenUnits >= 2) punctuationTokens++;
        unknownRun = 0;
      } else {
        if (tokenHasLetter) lettered++;
        if (tokenUnknown) {
          unknown++;
          longestUnknownRun = Math.max(longestUnknownRun, ++unknownRun);
        } else {
          unknownRun = 0;
        }
        if (tokenGlued) glued++;
        if (tokenMixedCase) mixedCase++;
      }
      tokenUnits = tokenWordUnits = 0;
      tokenHasLetter = tokenUnknown = tokenGlued = tokenPunctuationAfterWord = tokenMixedCase = false;
    }
    previousCode = code;
    previousClass = cls;
  }
  out.length = f;
  const perToken = Math.max(1, tokens);
  const s = out.structure;
  s[0] = unknown / Math.max(1, lettered);
  s[1] = glued / perToken;
  s[2] = mixedCase / perToken;
  s[3] = punctuationTokens / perToken;
  s[4] = Math.min(1, longestUnknownRun / 8);
  s[5] = Math.min(1, lines / perToken);
  s[6] = Math.min(1, Math.abs(brackets) / 4);
  s[7] = letters > 0 ? otherScriptLetters / letters : 0;
  s[8] = Math.min(1, tokens / 40);
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

/** The hashes of the words of a text, as the judge reads them: for building a vocabulary. */
export function wordHashes(text: string): number[] {
  const hashes: number[] = [];
  let word = WORD_SEED;
  let wordLength = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20;
    if (CLASS[code] & WORD) {
      word = Math.imul(word ^ LOWER[code], FNV_PRIME);
      wordLength++;
    } else if (wordLength > 0) {
      hashes.push(wordHash(word));
      word = WORD_SEED;
      wordLength = 0;
    }
  }
  return hashes;
}
