/**
 * Prompt normaliser: every judge (signatures, model) sees the canonical form of the prompt and every decoded
 * view of what the prompt hides (base64, hex, URL-encoding, ROT13, HTML/markdown-hidden text, Unicode tags).
 */

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
  /** Words mixing Latin with look-alike Cyrillic/Greek letters, or look-alike words inside Latin text. */
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
const CONFUSABLE_CLASS = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`);
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN_LETTER = /[A-Za-z]/;
const NON_LATIN_LETTER = /[^\p{Script=Latin}\P{L}]/u;

function mapWord(word: string): string {
  let mapped = '';
  for (const ch of word) mapped += HOMOGLYPHS[ch] ?? ch;
  return mapped;
}

/**
 * Maps look-alike letters, but only where they imitate Latin: inside a word that also has Latin letters, or a
 * word made only of look-alikes inside mostly-Latin text. Genuine Russian or Greek text stays as written.
 */
function mapHomoglyphs(text: string): { text: string; words: number } {
  if (!CONFUSABLE_CLASS.test(text)) return { text, words: 0 };
  let latin = 0;
  let other = 0;
  for (const ch of text) {
    if (LATIN_LETTER.test(ch)) latin++;
    else if (NON_LATIN_LETTER.test(ch)) other++;
  }
  const mostlyLatin = latin > 3 * other;
  let words = 0;
  const mapped = text.replace(WORD, (word) => {
    if (!CONFUSABLE_CLASS.test(word)) return word;
    const candidate = mapWord(word);
    if (NON_LATIN_LETTER.test(candidate)) {
      // Letters with no Latin twin remain: a genuine foreign word, unless it also mixes in Latin letters.
      if (!LATIN_LETTER.test(word)) return word;
    } else if (!LATIN_LETTER.test(word) && !mostlyLatin) {
      return word;
    }
    words++;
    return candidate;
  });
  return { text: mapped, words };
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

/** Code units of base64 (standard and URL-safe alphabets): 1 = letter or digit, 2 = + / - _. */
const BASE64_UNIT = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) BASE64_UNIT[code] = 1;
}
for (const ch of '+/-_') BASE64_UNIT[ch.charCodeAt(0)] = 2;
const MIN_BASE64_RUN = 16;

/** Runs of 16 or more base64 units with up to two "=" of padding, found by one pass over the code units. */
function base64Runs(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    if (code < 128 && BASE64_UNIT[code] !== 0) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_BASE64_RUN) {
      let end = i;
      while (end < text.length && end - i < 2 && text.charCodeAt(end) === 0x3d) end++;
      runs.push(text.slice(start, end));
    }
    start = -1;
  }
  return runs;
}

function decodeBase64(text: string): string[] {
  const out: string[] = [];
  for (const run of base64Runs(text)) {
    // An ordinary long word or identifier is not base64: base64 of text mixes cases and digits or padding.
    if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue;
    const standard = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    if (standard.length % 4 === 1) continue;
    const decoded = readableText(Buffer.from(standard, 'base64'));
    if (decoded !== null) out.push(decoded);
  }
  return out;
}

const HEX_RUN = /(?:0x)?[0-9a-fA-F]{16,}|(?:[0-9a-fA-F]{2}[ :,-]){7,}[0-9a-fA-F]{2}|(?:\\x[0-9a-fA-F]{2}){4,}/g;

const HEX_DIGIT = 1;
const HEX_SEPARATOR = 2;
const HEX_UNIT = new Uint8Array(128);
for (const ch of '0123456789abcdefABCDEF') HEX_UNIT[ch.charCodeAt(0)] = HEX_DIGIT;
for (const ch of ' :,-') HEX_UNIT[ch.charCodeAt(0)] = HEX_SEPARATOR;
const hexClass = (text: string, i: number) => {
  const code = text.charCodeAt(i);
  return code < 128 ? HEX_UNIT[code] : 0;
};

/**
 * A necessary condition of HEX_RUN, by one pass over the code units: 16 hex digits in a row, seven "hh:" pairs in
 * a row, or a "\\x" escape. Prose almost never meets it, so the regular expression rarely has to run.
 */
function mayHoldHex(text: string): boolean {
  if (text.includes('\\x')) return true;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    digits = hexClass(text, i) === HEX_DIGIT ? digits + 1 : 0;
    if (digits >= 16) return true;
  }
  // Pairs in a row: after a pair and its separator the next pair can only start right behind it.
  let pairs = 0;
  for (let i = 0; i + 2 < text.length;) {
    if (hexClass(text, i) === HEX_DIGIT && hexClass(text, i + 1) === HEX_DIGIT && hexClass(text, i + 2) === HEX_SEPARATOR) {
      if (++pairs >= 7) return true;
      i += 3;
    } else {
      pairs = 0;
      i++;
    }
  }
  return false;
}

function decodeHex(text: string): string[] {
  if (!mayHoldHex(text)) return [];
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

function decodeUrl(text: string): string[] {
  if (!text.includes('%')) return [];
  const escapes = text.match(/%[0-9a-fA-F]{2}/g);
  if (!escapes || escapes.length < PERCENT_ESCAPES_NEEDED) return [];
  const decoded = text.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
  return decoded === text ? [] : [decoded.replace(/\+(?=\S)/g, ' ')];
}

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
const markerPattern = (words: string[]) => new RegExp(`\\b(?:${words.join('|')})\\b`, 'gi');
const PLAIN_MARKERS = markerPattern(ENGLISH_MARKERS);
const ROT13_MARKERS = markerPattern(ENGLISH_MARKERS.map(rot13));
const ROT13_MIN_MARKERS = 2;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

const readsAsRot13 = (text: string) => {
  const rotated = count(text, ROT13_MARKERS);
  return rotated >= ROT13_MIN_MARKERS && rotated > count(text, PLAIN_MARKERS);
};

/** ROT13-decodes the text, or each line of it, that reads as language once rotated and not before. */
function decodeRot13(text: string): string[] {
  if (count(text, ROT13_MARKERS) < ROT13_MIN_MARKERS) return [];
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

function decodeHiddenMarkup(text: string): string[] {
  const hidden: string[] = [];
  if (text.includes('<!--')) for (const m of text.matchAll(HTML_COMMENT)) hidden.push(m[1]);
  if (text.includes('<')) for (const m of text.matchAll(HIDDEN_ELEMENT)) hidden.push(m[2].replace(/<[^>]*>/g, ' '));
  if (text.includes(']')) for (const m of text.matchAll(MARKDOWN_COMMENT)) hidden.push(m[1] ?? m[2] ?? '');
  if (count(text, NUMERIC_ENTITY) >= 3) {
    hidden.push(text.replace(NUMERIC_ENTITY, (_, hex: string | undefined, dec: string | undefined) => {
      const code = hex ? parseInt(hex, 16) : Number(dec);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }));
  }
  const joined = hidden.map((h) => h.trim()).filter(Boolean).join('\n');
  return count(joined, /\p{L}/gu) >= MIN_DECODED_LETTERS ? [joined] : [];
}

const DECODERS: ReadonlyArray<[Exclude<ViewKind, 'canonical' | 'unicode_tags'>, (text: string) => string[]]> = [
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
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(BIDI_CONTROLS, '').replace(TAG_CHARS, '');
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
    for (const [decodedKind, decode] of DECODERS) {
      for (const decoded of decode(cleaned)) addView(decodedKind, decoded, depth + 1);
    }
  };

  addView('canonical', prompt, 0);
  const smuggled = ascii ? '' : decodeTagChars(prompt);
  if (smuggled.length >= MIN_DECODED_LETTERS) addView('unicode_tags', smuggled, 1);
  return { views, traces };
}
