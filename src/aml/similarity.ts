// String similarity for name tokens: a typo budget by token length (edit distance), phonetic keys, initials.

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
  const longest = Math.max(a.length, b.length);
  const budget = allowedEdits(longest);
  const phonetic = phoneticA.length >= 2 && phoneticA === phoneticB && a.charCodeAt(0) === b.charCodeAt(0) && Math.min(a.length, b.length) >= 4;
  const distance = editDistance(a, b, Math.max(budget, 3));
  // Short names rarely differ by a typo in their first letter but often are other names ("fang"/"wang").
  const firstDiffers = a.charCodeAt(0) !== b.charCodeAt(0);
  let score = distance <= budget && !(firstDiffers && longest <= 5) ? 1 - distance / longest : 0;
  if (phonetic && distance <= budget + 1) score = Math.max(score, PHONETIC_SIMILARITY);
  return score;
}

/** Similarity of joined neighbours ("abdul rahman" / "abdulrahman"), 0 beyond the typo budget. */
export function joinedSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  const budget = allowedEdits(longest);
  const distance = editDistance(a, b, budget);
  return distance <= budget ? 1 - distance / longest : 0;
}
