// String similarity for name tokens: a typo budget by token length (edit distance), phonetic keys, initials.

import { COMMON_GIVEN } from './common-names.ts';

const MAX_LENGTH = 64;
const rowA = new Uint16Array(MAX_LENGTH + 1);
const rowB = new Uint16Array(MAX_LENGTH + 1);
const rowC = new Uint16Array(MAX_LENGTH + 1);

/** Optimal-string-alignment distance (Levenshtein plus adjacent transposition), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  const la = Math.min(a.length, MAX_LENGTH);
  const lb = Math.min(b.length, MAX_LENGTH);
  if (Math.abs(la - lb) > limit) return limit + 1;
  let previous2 = rowA;
  let previous = rowB;
  let current = rowC;
  for (let j = 0; j <= lb; j++) previous[j] = j;
  for (let i = 1; i <= la; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) value = Math.min(value, previous2[j - 2] + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    const recycled = previous2;
    previous2 = previous;
    previous = current;
    current = recycled;
  }
  return previous[lb];
}

/** Typos tolerated in a token of this length: none in 1–3 letters, one up to 6, two up to 10, then three. */
export function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 6) return 1;
  if (length <= 10) return 2;
  return 3;
}

/**
 * First letters that romanisations write for one sound: q/k/g/c (qaf, "qadhafi"/"gaddafi"), kh as k, h, x or ch
 * ("khalid"/"xalid"/"chalid"), j as g, y, i, e, dj or zh ("jibril"/"gibril", "yaroslav"/"jaroslaw"), ch, sh, tch,
 * ts, z and x ("cherif"/"sharif", "tsvetkov"/"zwetkow", "xiaolian"/"shiaolian"), the Russian g for h
 * ("gasanov"/"hasanov"), ph/f and w/v.
 */
const FIRST_LETTERS_OF_ONE_SOUND = new Set(['kq', 'kg', 'qg', 'kc', 'qc', 'kh', 'gh', 'kx', 'hx', 'cx', 'jg', 'jy', 'ji', 'je', 'yi', 'ye', 'jd', 'jz', 'dz', 'sz', 'sx', 'cs', 'ct', 'cz', 'tz', 'fp', 'vw']
  .flatMap((pair) => [pair, pair[1] + pair[0]]));

/** Similarity given by equal phonetic keys (same first letter) when spelling differs beyond the typo budget. */
const PHONETIC_SIMILARITY = 0.88;

/**
 * Similarity of two normalised tokens in [0, 1], 0 when they do not match. Within the typo budget of the longer
 * token (see allowedEdits) it is 1 − edits / length ("zawahri"/"zawahiri" 0.875); equal phonetic keys with the same first letter
 * of tokens of 4+ letters lift a pair to 0.88 ("mohammed"/"muhammad"); an initial ("j") matches a same-letter token at 0.9.
 */
export function tokenSimilarity(a: string, b: string, phoneticA: string, phoneticB: string): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? 0.9 : 0;
  if (nisbaFromGivenName(a, b)) return 0;
  const longest = Math.max(a.length, b.length);
  const budget = allowedEdits(longest);
  const phonetic = phoneticA.length >= 2 && phoneticA === phoneticB && a.charCodeAt(0) === b.charCodeAt(0) && Math.min(a.length, b.length) >= 4
    && sameEnding(a, b);
  const distance = editDistance(a, b, Math.max(budget, 3));
  // Names rarely differ by a typo in their first letter but often are other names: short ones by any first letter
  // ("fang"/"wang"), longer ones by a first letter of another sound ("baranova"/"saranova", "petrov"/"vetrov"),
  // unless romanisations write the two letters for one sound ("khattab"/"xattab", "jibril"/"gibril").
  // Swapping the first two letters is a typo ("lgobal", "espahan").
  const firstDiffers = a.charCodeAt(0) !== b.charCodeAt(0) && !(a[0] === b[1] && a[1] === b[0]);
  const otherFirstSound = firstDiffers && (longest <= 5 || (phoneticA[0] !== phoneticB[0] && !FIRST_LETTERS_OF_ONE_SOUND.has(a[0] + b[0])));
  let score = distance <= budget && !otherFirstSound ? 1 - distance / longest : 0;
  if (phonetic && distance <= budget + 1 && !everyVowelChanged(a, b)) score = Math.max(score, PHONETIC_SIMILARITY);
  if (score < PHONETIC_SIMILARITY && shortVowelWritten(a, b)) score = PHONETIC_SIMILARITY;
  return score;
}

const CONSONANT = /[^aeiouy]/;

/**
 * Whether one token is the other with the suffix "-i" of a Persian or Arabic nisba added to its final consonant:
 * a family name made from a common given name ("mohammadi" from "mohammad", "ahmadi", "hosseini", "rahmani"),
 * another name than the given name, not a spelling of it. Only when the shorter token sounds like a common given
 * name ending in a consonant (COMMON_GIVEN): a final "-i" is a spelling elsewhere ("anatol"/"anatoli",
 * "hadj"/"hadji", "ticaret"/"ticareti", "jovan"/"jovani"), not another name.
 */
export function nisbaFromGivenName(a: string, b: string): boolean {
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  if (shorter.length < 4 || !longer.endsWith('i') || !CONSONANT.test(shorter[shorter.length - 1]) || !CONSONANT.test(longer[longer.length - 2])) return false;
  const key = transliterationKey(shorter);
  return key === transliterationKey(longer.slice(0, -1)) && givenStemKeys().has(key);
}

let givenStemKeys_: Set<string> | undefined;
/** Transliteration keys of the common given names of four letters or more that end in a consonant. */
function givenStemKeys(): Set<string> {
  givenStemKeys_ ??= new Set([...COMMON_GIVEN].filter((n) => n.length >= 4 && CONSONANT.test(n[n.length - 1])).map(transliterationKey));
  return givenStemKeys_;
}

/**
 * Whether one three-letter token is the other with a short vowel written between two of its consonants: Arabic
 * romanisations write or leave out short vowels ("adl"/"adel", "sbr"/"sabr"), which the typo budget of a
 * three-letter token does not allow. A vowel after a vowel is another name ("lin"/"lian", "pak"/"paik").
 */
function shortVowelWritten(a: string, b: string): boolean {
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  if (shorter.length !== 3 || longer.length !== 4) return false;
  for (let i = 1; i < 3; i++) {
    if (VOWEL.test(longer[i]) && CONSONANT.test(longer[i - 1]) && CONSONANT.test(longer[i + 1]) && longer.slice(0, i) + longer.slice(i + 1) === shorter) return true;
  }
  return false;
}

export const VOWEL = /[aeiouy]/;

/**
 * Whether the tokens do not differ by a final "a" against a consonant: a sound-alike pair that does is most often
 * another name or the other gender's form ("olga"/"oleg", "barynova"/"baranov", "bushra"/"bashar"), while
 * romanisations of one name keep their ending ("lukashenka"/"lukashenko", "sergey"/"sergei").
 */
function sameEnding(a: string, b: string): boolean {
  const endA = a[a.length - 1];
  const endB = b[b.length - 1];
  return !((endA === 'a' && !VOWEL.test(endB)) || (endB === 'a' && !VOWEL.test(endA)));
}

/**
 * Rewrites shared by the romanisation systems of Cyrillic (ICAO 9303, BGN/PCGN, ISO 9, GOST, German and French
 * habits) and Arabic (UN, ALA-LC, press spellings): each digraph family reduced to one letter. Applied in order.
 */
const TRANSLITERATION_FOLDS: Array<[RegExp, string]> = [
  // German dsch for j ("Dschafar", "Ahmadinedschad"), before its sch is read as sh.
  [/dsch/g, 'j'],
  [/shch|sch|tsch|sh|ch|tch|sz|cz|sj/g, '§'],
  // dz: Serbo-Croat dž as ASCII writes it, dj as French writes it ("Karadzic", "Karadjic").
  [/dzh|dz|dj|zh|j/g, 'j'],
  [/kh|ch(?=$)/g, 'h'],
  [/ts|tz|cz/g, 'c'],
  [/x/g, 'ks'],
  [/ph/g, 'f'],
  // Persian and Arabic qaf and ghayn: "Ghasem", "Qasem", "Kassem".
  [/ck|q|gh|c(?![eiy])/g, 'k'],
  [/c/g, 's'],
  [/w/g, 'v'],
  [/([bdgkprt])h/g, '$1'],
];

function foldTransliteration(token: string): string {
  // A final h after a or e is the Arabic and Persian ta marbuta or a silent h, written or not ("hamzah"/"hamza",
  // "hayyeh"/"hayya", "abdullah"/"abdulla"); not after i or y, where it is the Russian -ikh ("kulikovskih"), nor
  // in kh, sh and ch ("sedykh").
  let folded = token.replace(FINAL_H, '');
  for (const [pattern, replacement] of TRANSLITERATION_FOLDS) folded = folded.replace(pattern, replacement);
  return folded;
}

/** Whether two tokens are one spelling once their romanisations' digraphs are folded ("vagner"/"wagner"). */
export function sameFoldedSpelling(a: string, b: string): boolean {
  return foldTransliteration(a) === foldTransliteration(b);
}

/**
 * A token's consonant skeleton across transliteration systems: digraphs folded, vowels dropped (y is a vowel),
 * doubled letters merged, with marks for a leading and a trailing vowel. "alexander", "aleksandr" and
 * "alyaksandr" share one key; so do "usama"/"osama", "ladin"/"laden", "husayn"/"hussein", "yanukovich"/
 * "yanukovych". The trailing mark keeps "olga" from "oleg" and "barynova" from "baranov".
 */
export function transliterationKey(token: string): string {
  const folded = foldTransliteration(token);
  // Doubled letters merge before the vowels go, so "potanin" (ptnn) stays apart from "putin" (ptn).
  const consonants = folded.replace(/(.)\1+/g, '$1').replace(/[aeiouy]+/g, '');
  return (VOWEL.test(folded[0]) ? '_' : '') + consonants + (VOWEL.test(folded[folded.length - 1]) ? '_' : '');
}

/** Share of its length a token may differ by and still be the same name in another transliteration. */
const TRANSLITERATION_MAX_EDIT_SHARE = 0.45;
/** Similarity of two tokens with one transliteration key. */
export const TRANSLITERATION_SIMILARITY = 0.95;

/** Consonant groups between vowels of a folded token, doubled letters merged ("kuznekov" → k zn k v). */
function consonantGroups(folded: string): string[] {
  return folded.replace(/(.)\1+/g, '$1').split(/[aeiouy]+/).filter(Boolean);
}

/**
 * Whether two folded tokens with one consonant skeleton have their vowels in the same places: romanisations
 * change vowels, not where they fall ("kuznetsov" k-zn-ts-v is not "kazankov" k-z-nk-v), except that one may
 * drop the vowel before its last consonant ("alexander" / "aleksandr").
 */
function sameVowelPlaces(foldedA: string, foldedB: string): boolean {
  const a = consonantGroups(foldedA);
  const b = consonantGroups(foldedB);
  const [longer, shorter] = a.length >= b.length ? [a, b] : [b, a];
  if (longer.length - shorter.length > 1) return false;
  const last = longer.length - shorter.length === 1 ? [...longer.slice(0, -2), longer.slice(-2).join('')] : longer;
  return last.every((group, i) => group === shorter[i]);
}

/** Longest name whose vowels may not all change to other sounds: a short one that does is another name. */
const SHORT_NAME_LENGTH = 5;

/**
 * Whether one vowel group is written a alone and the other i or y alone: fatha and kasra, which no romanisation
 * writes for one another, unlike a/e, e/i, o/u, or the o that Uzbek and Tajik write for a ("botir"/"batyr").
 */
function fathaAgainstKasra(a: string, b: string): boolean {
  return (/^a+$/.test(a) && /^[iy]+$/.test(b)) || (/^[iy]+$/.test(a) && /^a+$/.test(b));
}

/**
 * Whether two short tokens (folded or as written) with two or more vowel groups have every one spelt otherwise, one
 * of them a against i ("aydin"/"aadan"): by consonants and sound alone the two are alike. Romanisations respell
 * every vowel of a short name with other vowels often enough ("yusuf"/"yosef", "timur"/"temir", "botir"/"batyr")
 * that only fatha against kasra tells another name.
 */
function everyVowelChanged(first: string, second: string): boolean {
  if (Math.max(first.length, second.length) > SHORT_NAME_LENGTH) return false;
  const a = first.match(/[aeiouy]+/g) ?? [];
  const b = second.match(/[aeiouy]+/g) ?? [];
  return a.length >= 2 && a.length === b.length && a.every((group, i) => group !== b[i]) && a.some((group, i) => fathaAgainstKasra(group, b[i]));
}

/**
 * Similarity of two tokens that share a transliteration key, 0 when they are too short or differ too much to be
 * one name written twice ("omar"/"amir", "ruiz"/"raiz" share a key).
 */
export function transliterationSimilarity(a: string, b: string): number {
  if (Math.min(a.length, b.length) < 5) return 0;
  // The folds read Cyrillic and Arabic romanisations, not Pinyin, whose q, c and x are other sounds: one Chinese
  // syllable pairs by the key with no word of more syllables ("qiang" is not "cuiying"), and two Pinyin syllables
  // spelt otherwise are two syllables ("cheng" is not "sheng"; Wade-Giles readings are paired apart).
  const pinyinA = isPinyinSyllable(a);
  if (pinyinA !== isPinyinSyllable(b) || (pinyinA && a !== b)) return 0;
  const foldedA = foldTransliteration(a);
  const foldedB = foldTransliteration(b);
  // A final h dropped on one side only ("hamzah"/"hamza") makes one short name when the rest is spelt alike but for
  // the last vowel ("hayyeh"/"hayya"); otherwise the dropped h pairs unrelated short names ("salah"/"celia",
  // "jammeh"/"jimmy", "ullah"/"ulloa"). Longer names ("hizbullah"/"hizbulla", "nasrallah"/"nasrulla") vary their
  // inner vowels too and are left to the vowel-place and edit checks below.
  if (FINAL_H.test(a) !== FINAL_H.test(b) && Math.min(foldedA.length, foldedB.length) < 7 && withoutFinalVowel(foldedA) !== withoutFinalVowel(foldedB)) return 0;
  const limit = Math.floor(TRANSLITERATION_MAX_EDIT_SHARE * Math.max(foldedA.length, foldedB.length));
  return editDistance(foldedA, foldedB, limit) <= limit && sameVowelPlaces(foldedA, foldedB) && !everyVowelChanged(foldedA, foldedB) ? TRANSLITERATION_SIMILARITY : 0;
}

/** One syllable of Pinyin: an initial, an optional i or u glide, a final; without an initial a glide is written y or w ("yang", not "iang"). */
const PINYIN_SYLLABLE = /^(?![iu][aeiou])(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:[iu]?[aoe](?:ng|n|o|i)?|i(?:ng|n|u)?|u(?:n|i)?|ve?|ue)$/;

/** Whether a token is spelt as one syllable of Pinyin ("cheng", "liang", "xuan"). */
export function isPinyinSyllable(token: string): boolean {
  return PINYIN_SYLLABLE.test(token);
}

/** The final h foldTransliteration drops. */
const FINAL_H = /(?<=[ae])h$/;

function withoutFinalVowel(folded: string): string {
  return folded.replace(/[aeiouy]$/, '');
}

/** Similarity of joined neighbours ("abdul rahman" / "abdulrahman"), 0 beyond the typo budget. */
export function joinedSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  const budget = allowedEdits(longest);
  const distance = editDistance(a, b, budget);
  return distance <= budget ? 1 - distance / longest : 0;
}

/**
 * Spellings of one Korean family name across McCune-Reischauer, Revised Romanization and habit, and their key: the
 * key a syllable spelt so gets ("bag" as in "myungbak"), but for Choe, which every system writes with ch (ㅊ), so
 * that the English "Joe" is not read as it.
 */
const KOREAN_FAMILY_NAMES = new Map<string, string>([
  ...['ri', 'rhee', 'lee', 'yi', 'li', 'rhie'].map((s) => [s, 'i'] as [string, string]),
  ...['choe', 'choi', 'chwe'].map((s) => [s, 'choe'] as [string, string]),
  ...['pak', 'park', 'bak'].map((s) => [s, 'bag'] as [string, string]),
  ...['o', 'oh'].map((s) => [s, 'o'] as [string, string]),
  ...['ro', 'roh', 'no', 'noh'].map((s) => [s, 'no'] as [string, string]),
]);
/** Longest romanised Korean syllable ("kyeong", "hyeong"): a longer name part is two or more written together. */
export const KOREAN_SYLLABLE_LENGTH = 6;

/**
 * One key for the romanisations of a Korean syllable, or of syllables written together: McCune-Reischauer as the
 * North writes it ("Choe Ryong Hae", "Pak Pong Ju", "Ri Yong Ho", "Kim Chol"), Revised Romanization ("Bak Bong Ju",
 * "Cheol") and common habit ("Choi", "Park", "Lee", "Jung", "Young"): consonants by place (k/g, p/b, t/d, ch/j,
 * aspirated kh/ph/th as plain), the North's initial r/n before i/y dropped as the South drops it, and the vowel
 * spellings eo/o, eu/u, oo/u, ee/i, ou/u.
 */
export function koreanKey(token: string): string {
  const family = KOREAN_FAMILY_NAMES.get(token);
  if (family) return family;
  return token
    .replace(/^[rln](?=[iy])/, '')
    .replace(/ch|j/g, 'j').replace(/kh?|g/g, 'g').replace(/ph?|b/g, 'b').replace(/th?|d/g, 'd').replace(/sh/g, 's')
    .replace(/eo/g, 'o').replace(/eu/g, 'u').replace(/oo|ou/g, 'u').replace(/ee/g, 'i').replace(/ui(?![aeiou])/g, 'i')
    .replace(/(?<=^|[^aeiou])(y?)ou?ng/g, '$1ong').replace(/(?<=^|[^aeiou])(y?)ung/g, '$1ong')
    .replace(/(?<=[aeiou])r(?=[gbdm]$)/, '');
}
