// Perceptual hash of a document image, so the same document photographed or re-encoded again can be recognised
// across a tenant's checks (the route compares hashes; near-identical images differ by a few bits).
import { lumaAt } from './quality.ts';
import type { RawPixels } from './intake.ts';

/** 64-bit difference hash (dHash) as 16 hex digits: each bit says whether a 9×8 cell is brighter than its right neighbour. */
export function differenceHash(pixels: RawPixels): string {
  const cols = 9;
  const rows = 8;
  const luma = lumaAt(pixels, 256);
  const cell = new Float64Array(cols * rows);
  const counts = new Uint32Array(cols * rows);
  for (let y = 0; y < luma.height; y++) {
    const row = Math.min(rows - 1, Math.floor((y * rows) / luma.height));
    for (let x = 0; x < luma.width; x++) {
      const col = Math.min(cols - 1, Math.floor((x * cols) / luma.width));
      cell[row * cols + col]! += luma.data[y * luma.width + x]!;
      counts[row * cols + col]!++;
    }
  }
  let bits = 0n;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols - 1; col++) {
      const left = cell[row * cols + col]! / Math.max(1, counts[row * cols + col]!);
      const right = cell[row * cols + col + 1]! / Math.max(1, counts[row * cols + col + 1]!);
      bits = (bits << 1n) | (left > right ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, '0');
}

/** Number of differing bits between two hex hashes of equal length. */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new Error('hashes of different lengths');
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (x) {
    count += Number(x & 1n);
    x >>= 1n;
  }
  return count;
}

/** Hashes at most this many bits apart are treated as the same document image. */
export const SAME_IMAGE_MAX_DISTANCE = 6;
