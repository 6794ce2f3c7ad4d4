// Name comparison between what the document says (MRZ or OCR text) and what the integrator sent in metadata.
// MRZ names are upper-case A–Z with national characters transliterated (ICAO 9303 part 3: Ä→AE or A, Ø→OE, ß→SS…),
// and Cyrillic/Greek/… metadata must be romanised before it can be compared at all.
import anyAscii from 'any-ascii';
import { editSimilarity } from '../edit-distance.ts';

export interface NameMatch {
  /** 0–1: 1 is identical after normalisation. */
  score: number;
  surnameScore: number;
  givenNamesScore: number;
}

/** ICAO 9303 recommended transliterations that differ from plain accent-stripping. */
const ICAO_MULTI_LETTER: [RegExp, string][] = [
  [/[ÄÆ]/g, 'AE'],
  [/[äæ]/g, 'ae'],
  [/[ÖØ]/g, 'OE'],
  [/[öø]/g, 'oe'],
  [/Ü/g, 'UE'],
  [/ü/g, 'ue'],
  [/Å/g, 'AA'],
  [/å/g, 'aa'],
  [/ß/g, 'ss'],
  [/Þ/g, 'TH'],
  [/þ/g, 'th'],
];

function tokens(romanised: string): string[] {
  return romanised.toUpperCase().replace(/[^A-Z]+/g, ' ').trim().split(' ').filter(Boolean);
}

/** The spellings a name may take in an MRZ: plain romanisation and the ICAO multi-letter one. */
export function nameVariants(name: string): string[][] {
  const plain = tokens(anyAscii(name));
  const icao = tokens(anyAscii(ICAO_MULTI_LETTER.reduce((s, [re, to]) => s.replace(re, to), name)));
  return plain.join(' ') === icao.join(' ') ? [plain] : [plain, icao];
}

/**
 * Compares token lists ignoring order, separators and a document's truncation (MRZ names are cut to fit the
 * line, so a document token that is a prefix of ≥ 3 letters of the expected one counts as a match).
 */
function tokenListScore(expected: string[], onDocument: string[]): number {
  if (expected.length === 0) return onDocument.length === 0 ? 1 : 0;
  const joinedScore = editSimilarity(expected.join(''), onDocument.join(''));
  let matched = 0;
  for (const want of expected) {
    let best = 0;
    for (const got of onDocument) {
      const truncated = got.length >= 3 && want.startsWith(got) ? 0.95 : 0;
      best = Math.max(best, editSimilarity(want, got), truncated);
    }
    matched += best;
  }
  return Math.max(joinedScore, matched / expected.length);
}

function bestOver(expected: string, onDocument: string): number {
  let best = 0;
  for (const e of nameVariants(expected)) for (const d of nameVariants(onDocument)) best = Math.max(best, tokenListScore(e, d));
  return best;
}

/** Surname and given names compared separately; the score is the weaker of the two (both must match). */
export function compareNames(
  expected: { firstName: string; lastName: string },
  onDocument: { firstName: string; lastName: string },
): NameMatch {
  const surnameScore = bestOver(expected.lastName, onDocument.lastName);
  const givenNamesScore = bestOver(expected.firstName, onDocument.firstName);
  // Some integrators swap first and last names; accept the swap with a small penalty.
  const swapped = Math.min(bestOver(expected.lastName, onDocument.firstName), bestOver(expected.firstName, onDocument.lastName)) * 0.9;
  const straight = Math.min(surnameScore, givenNamesScore);
  const score = Math.max(straight, swapped);
  return { score: round(score), surnameScore: round(surnameScore), givenNamesScore: round(givenNamesScore) };
}

/**
 * How well a name appears in free OCR text (licences without MRZ, proof of address): every expected token must be
 * found as a word, fuzzily. Returns the weakest token's similarity.
 */
export function findNameInText(expected: { firstName: string; lastName: string }, text: string): number {
  const words = tokens(anyAscii(text));
  let best = 0;
  for (const variant of nameVariants(`${expected.firstName} ${expected.lastName}`)) {
    let weakest = 1;
    for (const want of variant) {
      let found = 0;
      for (const word of words) found = Math.max(found, editSimilarity(want, word));
      weakest = Math.min(weakest, found);
    }
    best = Math.max(best, variant.length ? weakest : 0);
  }
  return round(best);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
