// Shared by the benchmarks (bench/run.ts skips files starting with `_`).

/** The p-th percentile (0–100) of the samples, by rank: the sample at ⌊p% · n⌋ of the sorted samples, clamped to the last. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
