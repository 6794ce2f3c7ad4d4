/**
 * Near-duplicate texts of different groups (a jailbreak template filled with another goal, one security request
 * reworded, a phrase written twice in a bank) would fall into different splits, and a held-out sample would then be
 * nearly a training sample. Such groups are joined: each is given the name of the first group of its cluster, so that
 * the split by group keeps a cluster together.
 */
import { fnv1a, mix32 } from './hashes.ts';

/** How many characters make a shingle: a few words in alphabetic scripts, a short phrase in ideographic ones. */
const SHINGLE_CHARS = 8;
/** Texts at least this alike (Jaccard similarity of their shingle sets) are near-duplicates. */
const NEAR_DUPLICATE_JACCARD = 0.5;
/** MinHash: bands of rows; two texts are compared when every row of one band agrees (1 − (1 − J²)⁸ of pairs at J). */
const BANDS = 8;
const ROWS = 2;

interface Grouped {
  text: string;
  group: string;
}

/** The sorted, distinct hashes of a text's shingles, read on its letters and digits, lower-cased, one space between words. */
function shingles(text: string): Uint32Array {
  const plain = text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (plain.length <= SHINGLE_CHARS) return Uint32Array.of(fnv1a(plain));
  const hashes = new Uint32Array(plain.length - SHINGLE_CHARS + 1);
  for (let i = 0; i < hashes.length; i++) hashes[i] = fnv1a(plain, i, i + SHINGLE_CHARS);
  hashes.sort();
  let distinct = 0;
  for (let i = 0; i < hashes.length; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[distinct++] = hashes[i];
  return hashes.slice(0, distinct);
}

function jaccard(a: Uint32Array, b: Uint32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) (shared++, i++, j++);
    else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared / (a.length + b.length - shared);
}

function bandKeys(set: Uint32Array): string[] {
  const minima = new Uint32Array(BANDS * ROWS).fill(0xffffffff);
  for (const hash of set) {
    for (let k = 0; k < minima.length; k++) {
      const value = mix32(hash ^ Math.imul(k + 1, 0x9e3779b9));
      if (value < minima[k]) minima[k] = value;
    }
  }
  return Array.from({ length: BANDS }, (_, band) => `${band}:${minima.subarray(band * ROWS, (band + 1) * ROWS).join(',')}`);
}

/**
 * For each group joined to another, the name it takes: that of the first group, in the order given, of those linked
 * to it by chains of near-duplicates. The groups that keep their own name are left out.
 */
export function nearDuplicateGroups(items: readonly Grouped[]): Map<string, string> {
  const index = new Map<string, number>();
  const groups: string[] = [];
  const parent: number[] = [];
  const groupOf = items.map(({ group }) => {
    if (!index.has(group)) {
      index.set(group, groups.length);
      groups.push(group);
      parent.push(parent.length);
    }
    return index.get(group)!;
  });
  const find = (g: number): number => {
    while (parent[g] !== g) g = parent[g] = parent[parent[g]];
    return g;
  };
  const sets = items.map(({ text }) => shingles(text));
  const buckets = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const key of bandKeys(set)) {
      const bucket = buckets.get(key);
      if (!bucket) {
        buckets.set(key, [i]);
        continue;
      }
      for (const j of bucket) {
        const [a, b] = [find(groupOf[i]), find(groupOf[j])];
        if (a !== b && jaccard(set, sets[j]) >= NEAR_DUPLICATE_JACCARD) parent[Math.max(a, b)] = Math.min(a, b);
      }
      bucket.push(i);
    }
  });
  const joined = new Map<string, string>();
  groups.forEach((group, g) => {
    if (find(g) !== g) joined.set(group, groups[find(g)]);
  });
  return joined;
}
