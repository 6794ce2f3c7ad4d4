/**
 * Prompt normaliser: every judge (signatures, model) sees the canonical form of the prompt and every decoded
 * view of what the prompt hides (base64, hex, URL-encoding, ROT13, HTML/markdown-hidden text, Unicode tags).
 */

import { CodeUnits } from './units.ts';

export type ViewKind = 'canonical' | 'base64' | 'hex' | 'url' | 'rot13' | 'html_hidden' | 'unicode_tags';

export interface PromptView {
  kind: ViewKind;
  /** NFKC, invisible controls removed, homoglyphs mapped, lower-cased. */
  text: string;
  /** The same before lower-casing, offset for offset: sentence segmentation needs the capitals. */
  cased: string;
}

export interface ObfuscationTraces {
  /** Zero-width characters splitting Latin words ("ig\u200bnore"). */
  zeroWidthInWords: boolean;
  /** Bidi embedding/override controls (U+202A–U+202E), used to reorder what a reader sees. */
  bidiOverrides: boolean;
  /** Words imitating Latin with letters of another script (Cyrillic, Greek, Armenian look-alikes). */
  homoglyphWords: number;
}

export interface NormalisedPrompt {
  /** views[0] is always the canonical view of the whole prompt. */
  views: PromptView[];
  traces: ObfuscationTraces;
}

const MAX_DECODE_DEPTH = 2;
/** A decoded view shorter than this many letters carries no instruction worth judging. */
const MIN_DECODED_LETTERS = 4;

// Soft hyphen, combining grapheme joiner, Mongolian vowel separator, zero-width space/non-joiner/joiner,
// word joiner and invisible operators, BOM, Hangul fillers, Khmer inherent vowels, variation selectors.
const INVISIBLE = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200D\u2060-\u2064\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDD00-\uDDEF]/g;
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
const BIDI_OVERRIDES = /[\u202A-\u202E]/;
const ZERO_WIDTH_IN_LATIN_WORD = /[A-Za-z][\u200B-\u200D\u2060-\u2064\uFEFF]+[A-Za-z]/;
/** Unicode tag characters U+E0000–U+E007F ("ASCII smuggling"): invisible, each mirrors one ASCII character. */
const TAG_CHARS = /\uDB40[\uDC00-\uDC7F]/g;

/** Look-alike letters (Unicode confusables, the ones used in practice) mapped to the Latin letter they imitate. */
const HOMOGLYPHS: Record<string, string> = {
  // Cyrillic
  'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
  'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y',
  'ɡ': 'g', 'ı': 'i', 'ӏ': 'l',
  'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y',
  'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Һ': 'H', 'Ԛ': 'Q', 'Ԝ': 'W',
  // Greek
  'α': 'a', 'β': 'b', 'γ': 'y', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u',
  'χ': 'x', 'ω': 'w',
  'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
  'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
  // Armenian and Latin look-alikes outside ASCII that NFKC keeps
  'օ': 'o', 'ս': 'u', 'հ': 'h', 'ո': 'n', 'ɑ': 'a', 'ǀ': 'l', 'ꓲ': 'I',
};
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const NON_LATIN_LETTER = /[^\p{Script=Latin}\P{L}]/u;

/**
 * Per BMP code unit: part of a word (letter or mark), a letter of another script than Latin, a look-alike, a unit
 * that `clean` removes (or the lead unit of the tag and variation-selector planes). Tables, because character-class
 * regular expressions over long non-Latin text cost several times a loop over the units.
 */
const IN_WORD = 1;
const NON_LATIN = 2;
const CONFUSABLE = 4;
const REMOVABLE = 8;
const LETTER_CLASS = new Uint8Array(0x10000);
const REMOVED_UNIT = new RegExp(`^(?:${INVISIBLE.source}|${BIDI_CONTROLS.source})$`);
for (let code = 0; code < 0x10000; code++) {
  if (code >= 0xd800 && code <= 0xdfff) continue;
  const ch = String.fromCharCode(code);
  if (LETTER_OR_MARK.test(ch)) LETTER_CLASS[code] |= IN_WORD;
  if (NON_LATIN_LETTER.test(ch)) LETTER_CLASS[code] |= NON_LATIN;
  if (REMOVED_UNIT.test(ch)) LETTER_CLASS[code] |= REMOVABLE;
}
for (const ch of Object.keys(HOMOGLYPHS)) LETTER_CLASS[ch.charCodeAt(0)] |= CONFUSABLE;
LETTER_CLASS[0xdb40] |= REMOVABLE;

/** Whether any code unit of the text has the class `flag`. */
function hasUnitOf(text: string, flag: number): boolean {
  for (let i = 0; i < text.length; i++) if (LETTER_CLASS[text.charCodeAt(i)] & flag) return true;
  return false;
}

const isSurrogatePairAt = (text: string, i: number, code: number) => {
  if (code < 0xd800 || code > 0xdbff || i + 1 >= text.length) return false;
  const next = text.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff;
};

/** The letter class of the code point at `i` (a surrogate pair is classed as one code point). */
function letterClassAt(text: string, i: number, code: number): number {
  if (!isSurrogatePairAt(text, i, code)) return LETTER_CLASS[code];
  const pair = text.slice(i, i + 2);
  return (LETTER_OR_MARK.test(pair) ? IN_WORD : 0) | (NON_LATIN_LETTER.test(pair) ? NON_LATIN : 0);
}

const isAsciiLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

/**
 * Maps look-alike letters, but only where they imitate Latin: inside a word that also has Latin letters, or a
 * word made only of look-alikes inside mostly-Latin text. Genuine Russian or Greek text stays as written.
 * Words are runs of letters and marks; one pass classes them, a second maps the words that qualify. A word made
 * only of look-alikes counts as a disguise only when its line has no letter without a Latin twin (Russian л, ы, я):
 * a Russian comment in code or a Russian sentence after an English label is genuine Russian, whatever the rest of
 * the text, while a line disguised throughout holds look-alikes only.
 */
function mapHomoglyphs(text: string): { text: string; words: number } {
  if (!hasUnitOf(text, CONFUSABLE)) return { text, words: 0 };
  let latin = 0;
  let other = 0;
  const lineForeign: number[] = [0];
  // Words to map as [start, end, only if mostly Latin, disguised, line] quintuples: a word made only of look-alikes
  // waits for the count of Latin and other letters, which one pass over the words takes along the way.
  const candidates: number[] = [];
  for (let i = 0; i < text.length;) {
    const start = i;
    let confusables = 0;
    // Look-alikes from another script; a Latin one (Turkish dotless ı) is mapped but is no sign of disguise.
    let disguising = false;
    let hasLatin = false;
    // Letters of another script that have no Latin twin: a genuine foreign word, unless it also mixes in Latin.
    let foreign = false;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      const cls = code < 0x80 ? (isAsciiLetter(code) ? IN_WORD : 0) : letterClassAt(text, i, code);
      if (!(cls & IN_WORD)) break;
      if (code < 0x80) {
        hasLatin = true;
        latin++;
      } else if (cls & NON_LATIN) {
        other++;
        if (!(cls & CONFUSABLE)) lineForeign[lineForeign.length - 1]++;
        if (!(cls & CONFUSABLE)) foreign = true;
      }
      if (cls & CONFUSABLE) {
        confusables++;
        if (cls & NON_LATIN) disguising = true;
      }
      i += isSurrogatePairAt(text, i, code) ? 2 : 1;
    }
    if (i === start) {
      if (text.charCodeAt(i) === 0x0a) lineForeign.push(0);
      i++;
      continue;
    }
    if (confusables === 0 || (foreign && !hasLatin)) continue;
    candidates.push(start, i, hasLatin ? 0 : 1, disguising ? 1 : 0, lineForeign.length - 1);
  }
  const mostlyLatin = latin > 3 * other;
  let words = 0;
  let mapped = '';
  let copiedUpTo = 0;
  for (let c = 0; c < candidates.length; c += 5) {
    const [start, end, onlyIfMostlyLatin, disguised, line] = [candidates[c], candidates[c + 1], candidates[c + 2], candidates[c + 3], candidates[c + 4]];
    if (onlyIfMostlyLatin && !mostlyLatin) continue;
    if (disguised && (!onlyIfMostlyLatin || lineForeign[line] === 0)) words++;
    mapped += text.slice(copiedUpTo, start);
    for (let k = start; k < end; k++) mapped += HOMOGLYPHS[text[k]] ?? text[k];
    copiedUpTo = end;
  }
  return { text: copiedUpTo === 0 ? text : mapped + text.slice(copiedUpTo), words };
}

function decodeTagChars(text: string): string {
  const tags = text.match(TAG_CHARS);
  if (!tags) return '';
  let decoded = '';
  for (const tag of tags) {
    const code = tag.codePointAt(0)! - 0xe0000;
    if (code >= 0x20 && code < 0x7f) decoded += String.fromCharCode(code);
  }
  return decoded;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes → text when they are readable UTF-8 text, else null (random bytes, images, hashes). */
function readableText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  let printable = 0;
  let letters = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 || code === 0x0a || code === 0x0d || code === 0x09) printable++;
    if (/\p{L}/u.test(ch)) letters++;
  }
  const length = [...text].length;
  if (length === 0 || printable / length < 0.9 || letters < MIN_DECODED_LETTERS) return null;
  return text;
}

/** Classes of ASCII code units for `scanUnits`. */
const BASE64_UNIT = 1;
const HEX_DIGIT_SHIFT = 1;
const HEX_DIGIT = 1 << HEX_DIGIT_SHIFT;
const HEX_SEPARATOR = 4;
/** What the regular expressions' \b counts as a word character: [A-Za-z0-9_]. */
const WORD_UNIT = 8;
const ASCII_LETTER = 16;
/** Per UTF-16 code unit (only ASCII units have a class): one load, no range test, per unit. */
const UNIT = new Uint8Array(0x10000);
for (let code = 0; code < 128; code++) {
  const letter = isAsciiLetter(code);
  const digit = code >= 0x30 && code <= 0x39;
  if (letter || digit) UNIT[code] |= BASE64_UNIT | WORD_UNIT;
  if (letter) UNIT[code] |= ASCII_LETTER;
}
for (const ch of '+/-_') UNIT[ch.charCodeAt(0)] |= BASE64_UNIT;
UNIT['_'.charCodeAt(0)] |= WORD_UNIT;
for (const ch of '0123456789abcdefABCDEF') UNIT[ch.charCodeAt(0)] |= HEX_DIGIT;
for (const ch of ' :,-') UNIT[ch.charCodeAt(0)] |= HEX_SEPARATOR;
const MIN_BASE64_RUN = 16;
/** 16 = 1 << 4: a run of hex digits reaches it when the run's count shifted right by 4 is not 0. */
const MIN_HEX_DIGITS_LOG2 = 4;
const MIN_HEX_PAIRS = 7;

/** Common words whose ROT13 forms ("gur", "lbh") almost never occur in real text of any language. */
const ENGLISH_MARKERS = ['the', 'and', 'you', 'your', 'are', 'is', 'to', 'of', 'for', 'with', 'this', 'that', 'now',
  'all', 'not', 'what', 'ignore', 'instructions', 'system', 'prompt', 'mode', 'previous', 'rules', 'tell', 'me',
  // German, Spanish and French, so that overrides in those languages are rotated back too.
  'und', 'die', 'der', 'nicht', 'alle', 'anweisungen', 'que', 'las', 'los', 'todas', 'instrucciones', 'les', 'des', 'toutes'];
function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}
const WORD_HASH_SEED = 0x811c9dc5;
const foldedHash = (hash: number, code: number) => Math.imul(hash ^ (code | 0x20), 0x01000193);
/**
 * The ROT13 markers by the hash of their letters, case folded, so that one pass can count them: an open-addressed
 * table (a miss costs one load, where a Map look-up per word of a long prompt costs more than the whole pass).
 */
const MARKER_SLOTS = 256;
const ROT13_MARKERS_ROTATED = ENGLISH_MARKERS.map(rot13);
const markerSlotOf = (hash: number) => (hash ^ (hash >>> 16)) & (MARKER_SLOTS - 1);
const markerHashes = new Int32Array(MARKER_SLOTS);
/** Index + 1 of the marker in each slot; 0 = empty. */
const markerAt = new Uint8Array(MARKER_SLOTS);
ROT13_MARKERS_ROTATED.forEach((marker, index) => {
  let hash = WORD_HASH_SEED;
  for (let k = 0; k < marker.length; k++) hash = foldedHash(hash, marker.charCodeAt(k));
  if (rot13MarkerOf(hash) !== undefined) throw new Error(`ROT13 markers share a hash: ${marker}`);
  let slot = markerSlotOf(hash);
  while (markerAt[slot] !== 0) slot = (slot + 1) & (MARKER_SLOTS - 1);
  markerHashes[slot] = hash;
  markerAt[slot] = index + 1;
});

/** The ROT13 marker whose letters hash to `hash`, if any. */
function rot13MarkerOf(hash: number): string | undefined {
  for (let slot = markerSlotOf(hash); markerAt[slot] !== 0; slot = (slot + 1) & (MARKER_SLOTS - 1)) {
    if (markerHashes[slot] === hash) return ROT13_MARKERS_ROTATED[markerAt[slot] - 1];
  }
  return undefined;
}

/** Per first letter (a–z, case folded), a bit for each length of a ROT13 marker starting with it. */
const MARKER_LENGTHS_BY_INITIAL = new Int32Array(26);
for (const marker of ROT13_MARKERS_ROTATED) MARKER_LENGTHS_BY_INITIAL[marker.charCodeAt(0) - 0x61] |= 1 << marker.length;

/** Whether the word of ASCII letters units[start, end) is a ROT13 marker, ASCII case folded. */
function isRot13Marker(units: Uint16Array, start: number, end: number): boolean {
  // Most words fail on their initial and length alone; the rest are hashed.
  const length = end - start;
  if (length > 31 || !((MARKER_LENGTHS_BY_INITIAL[(units[start] | 0x20) - 0x61] >>> length) & 1)) return false;
  let hash = WORD_HASH_SEED;
  for (let k = start; k < end; k++) hash = foldedHash(hash, units[k]);
  const marker = rot13MarkerOf(hash);
  return marker !== undefined && isFoldedWord(units, start, end, marker);
}

/** Whether the word units[start, end) is `marker`, ASCII case folded (how /\bmarker\b/i matches). */
function isFoldedWord(units: Uint16Array, start: number, end: number, marker: string): boolean {
  if (end - start !== marker.length) return false;
  for (let k = 0; k < marker.length; k++) if ((units[start + k] | 0x20) !== marker.charCodeAt(k)) return false;
  return true;
}

/**
 * What the decoders need to know of a text, from one pass over its code units, so that a decoder whose input
 * cannot occur never runs its regular expressions: the base64 runs, whether a hex run may occur (16 hex digits in
 * a row, seven "hh:" pairs in a row, or a "\x" escape), the count of %-escapes, of ROT13 marker words ("gur",
 * "lbh") and of "&#" entity openings.
 */
interface UnitScan {
  base64Runs: string[];
  mayHoldHex: boolean;
  percentEscapes: number;
  rot13Markers: number;
  entityOpenings: number;
}

const scanned = new CodeUnits();

function scanUnits(text: string): UnitScan {
  const n = text.length;
  const units = scanned.of(text);
  const unitAt = (i: number) => (i < n ? units[i] : 0);
  const scan: UnitScan = { base64Runs: [], mayHoldHex: false, percentEscapes: 0, rot13Markers: 0, entityOpenings: 0 };
  let runStart = -1;
  let hexDigits = 0;
  let hexPairs = 0;
  let lastPairEnd = -4;
  for (let i = 0; i < n;) {
    let code = units[i];
    let cls = UNIT[code];
    if (cls & WORD_UNIT) {
      // A word: base64 units all, hashed for the ROT13 markers, counted for hex digits. Its units are classed
      // without a branch each (letters and hex digits alternate unpredictably): the classes are ANDed, and the
      // count of hex digits in a row drops to 0 at any other unit.
      const start = i;
      let allUnits = cls;
      let longHexRun = 0;
      if (runStart < 0) runStart = start;
      do {
        hexDigits = (hexDigits + 1) & -((cls >> HEX_DIGIT_SHIFT) & 1);
        longHexRun |= hexDigits >> MIN_HEX_DIGITS_LOG2;
        allUnits &= cls;
        code = unitAt(++i);
        cls = UNIT[code];
      } while (cls & WORD_UNIT);
      if (longHexRun !== 0) scan.mayHoldHex = true;
      if (allUnits & ASCII_LETTER && isRot13Marker(units, start, i)) scan.rot13Markers++;
      continue;
    }
    if (cls & BASE64_UNIT) {
      if (runStart < 0) runStart = i;
    } else if (runStart >= 0) {
      if (i - runStart >= MIN_BASE64_RUN) {
        // Up to two "=" of padding belong to the run.
        let end = i;
        while (end < n && end - i < 2 && units[end] === 0x3d) end++;
        scan.base64Runs.push(text.slice(runStart, end));
      }
      runStart = -1;
    }
    // A pair and its separator end here; pairs in a row end three units apart.
    if (cls & HEX_SEPARATOR && hexDigits >= 2) {
      hexPairs = i - 3 === lastPairEnd ? hexPairs + 1 : 1;
      lastPairEnd = i;
      if (hexPairs >= MIN_HEX_PAIRS) scan.mayHoldHex = true;
    }
    hexDigits = 0;
    if (code === 0x5c && unitAt(i + 1) === 0x78) scan.mayHoldHex = true;
    else if (code === 0x25 && UNIT[unitAt(i + 1)] & HEX_DIGIT && UNIT[unitAt(i + 2)] & HEX_DIGIT) scan.percentEscapes++;
    else if (code === 0x26 && unitAt(i + 1) === 0x23) scan.entityOpenings++;
    i++;
  }
  if (runStart >= 0 && n - runStart >= MIN_BASE64_RUN) scan.base64Runs.push(text.slice(runStart));
  return scan;
}

function decodeBase64(_text: string, scan: UnitScan): string[] {
  const out: string[] = [];
  for (const run of scan.base64Runs) {
    // An ordinary long word or identifier is not base64: base64 of text mixes cases and digits or padding.
    if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue;
    const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    if (standard.length % 4 === 1) continue;
    const decoded = readableText(Buffer.from(standard, 'base64'));
    if (decoded !== null) out.push(decoded);
  }
  return out;
}

/** A run starts at a word boundary: "mac 72:65:…" is the pairs from 72 on, not "ac" glued to them. */
const HEX_RUN = /(?<![0-9A-Za-z])(?:(?:0x)?[0-9a-fA-F]{16,}|(?:[0-9a-fA-F]{2}[ :,-]){7,}[0-9a-fA-F]{2})|(?:\\x[0-9a-fA-F]{2}){4,}/g;

function decodeHex(text: string, scan: UnitScan): string[] {
  if (!scan.mayHoldHex) return [];
  const out: string[] = [];
  for (const match of text.matchAll(HEX_RUN)) {
    const digits = match[0].replace(/^0x/, '').replace(/\\x|[ :,-]/g, '');
    if (digits.length % 2 !== 0) continue;
    const decoded = readableText(Buffer.from(digits, 'hex'));
    if (decoded !== null) out.push(decoded);
  }
  return out;
}

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
const PERCENT_ESCAPES_NEEDED = 3;

function decodeUrl(text: string, scan: UnitScan): string[] {
  if (scan.percentEscapes < PERCENT_ESCAPES_NEEDED) return [];
  const decoded = text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  return decoded === text ? [] : [decoded.replace(/\+(?=\S)/g, ' ')];
}

const markerPattern = (words: string[]) => new RegExp(`\\b(?:${words.join('|')})\\b`, 'gi');
const PLAIN_MARKERS = markerPattern(ENGLISH_MARKERS);
const ROT13_MARKERS = markerPattern(ROT13_MARKERS_ROTATED);
const ROT13_MIN_MARKERS = 2;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

const readsAsRot13 = (text: string) => {
  const rotated = count(text, ROT13_MARKERS);
  return rotated >= ROT13_MIN_MARKERS && rotated > count(text, PLAIN_MARKERS);
};

/** ROT13-decodes the text, or each line of it, that reads as language once rotated and not before. */
function decodeRot13(text: string, scan: UnitScan): string[] {
  if (scan.rot13Markers < ROT13_MIN_MARKERS) return [];
  if (readsAsRot13(text)) return [rot13(text)];
  const lines: string[] = [];
  for (const line of text.split(/\n|(?<=[.!?])\s+/)) {
    if (readsAsRot13(line)) lines.push(rot13(line));
  }
  return lines.length ? [lines.join('\n')] : [];
}

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
const HIDDEN_ELEMENT =
  /<(\w+)\b[^>]*?(?:\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9]))[^>]*>([\s\S]*?)<\/\1\s*>/gi;
const MARKDOWN_COMMENT = /^\s*\[(?:\/\/|comment|#)\]\s*:\s*(?:#|<>)\s*(?:\(([^)]*)\)|"([^"]*)")/gim;
const NUMERIC_ENTITY = /&#(?:x([0-9a-f]{1,6})|(\d{1,7}));/gi;

/** Necessary conditions of HIDDEN_ELEMENT and MARKDOWN_COMMENT, much cheaper to search for over a long text. */
const HIDING_STYLE = /hidden|display|visibility|font-size|opacity/i;
const MARKDOWN_COMMENT_LABEL = /\[(?:\/\/|comment|#)\]/i;
const MIN_NUMERIC_ENTITIES = 3;

function decodeHiddenMarkup(text: string, scan: UnitScan): string[] {
  const hidden: string[] = [];
  if (text.includes('<!--')) for (const m of text.matchAll(HTML_COMMENT)) hidden.push(m[1]);
  if (text.includes('<') && HIDING_STYLE.test(text)) for (const m of text.matchAll(HIDDEN_ELEMENT)) hidden.push(m[2].replace(/<[^>]*>/g, ' '));
  if (MARKDOWN_COMMENT_LABEL.test(text)) for (const m of text.matchAll(MARKDOWN_COMMENT)) hidden.push(m[1] ?? m[2] ?? '');
  if (scan.entityOpenings >= MIN_NUMERIC_ENTITIES && count(text, NUMERIC_ENTITY) >= MIN_NUMERIC_ENTITIES) {
    hidden.push(text.replace(NUMERIC_ENTITY, (_, hex: string | undefined, dec: string | undefined) => {
      const code = hex ? parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }));
  }
  const joined = hidden.map((h) => h.trim()).filter(Boolean).join('\n');
  return count(joined, /\p{L}/gu) >= MIN_DECODED_LETTERS ? [joined] : [];
}

const DECODERS: ReadonlyArray<[Exclude<ViewKind, 'canonical' | 'unicode_tags'>, (text: string, scan: UnitScan) => string[]]> = [
  ['base64', decodeBase64],
  ['hex', decodeHex],
  ['url', decodeUrl],
  ['rot13', decodeRot13],
  ['html_hidden', decodeHiddenMarkup],
];

/** Lower case with the same UTF-16 offsets (a few letters, such as İ, grow when lower-cased). */
function lowerCaseKeepingOffsets(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const mapped = ch.toLowerCase();
    out += mapped.length === ch.length ? mapped : ch;
  }
  return out;
}

const NON_ASCII = /[^\x00-\x7f]/;
/** NFKC and removal of invisible characters; case is kept because decoders (base64) need it. */
function clean(text: string): string {
  const nfkc = text.normalize('NFKC');
  if (!hasUnitOf(nfkc, REMOVABLE)) return nfkc;
  return nfkc.replace(INVISIBLE, '').replace(BIDI_CONTROLS, '').replace(TAG_CHARS, '');
}

export function normalisePrompt(prompt: string): NormalisedPrompt {
  const ascii = !NON_ASCII.test(prompt);
  const traces: ObfuscationTraces = {
    zeroWidthInWords: !ascii && ZERO_WIDTH_IN_LATIN_WORD.test(prompt),
    bidiOverrides: !ascii && BIDI_OVERRIDES.test(prompt),
    homoglyphWords: 0,
  };
  const views: PromptView[] = [];
  const seen = new Set<string>();

  const addView = (kind: ViewKind, raw: string, depth: number): void => {
    // Plain ASCII has nothing for NFKC, the invisible-character passes or the homoglyph map to change.
    const rawAscii = raw === prompt ? ascii : !NON_ASCII.test(raw);
    const cleaned = rawAscii ? raw : clean(raw);
    const homoglyphs = rawAscii ? { text: cleaned, words: 0 } : mapHomoglyphs(cleaned);
    traces.homoglyphWords += homoglyphs.words;
    const cased = homoglyphs.text;
    const text = lowerCaseKeepingOffsets(cased);
    if (seen.has(text)) return;
    seen.add(text);
    views.push({ kind, text, cased });
    if (depth >= MAX_DECODE_DEPTH) return;
    const scan = scanUnits(cleaned);
    for (const [decodedKind, decode] of DECODERS) {
      for (const decoded of decode(cleaned, scan)) addView(decodedKind, decoded, depth + 1);
    }
  };

  addView('canonical', prompt, 0);
  const smuggled = ascii ? '' : decodeTagChars(prompt);
  if (smuggled.length >= MIN_DECODED_LETTERS) addView('unicode_tags', smuggled, 1);
  return { views, traces };
}
