/** The small non-cryptographic hashes the data set is composed and split by. */

/** FNV-1a of `text` (or of its code units from `from` to `to`). */
export function fnv1a(text: string, from = 0, to = text.length): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Murmur3's finaliser: a well-mixed 32-bit value from another. */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
