// Image quality measurements on the decoded working copy. Only measurements here: the thresholds that turn them
// into reasons live in decision.ts so the rule is in one place.
import type { RawPixels } from './intake.ts';

export interface QualityMeasures {
  /** Shortest side of the original image, px. */
  shortSide: number;
  /** Mean and standard deviation of luma (0–255). */
  meanLuma: number;
  medianLuma: number;
  stdLuma: number;
  /** Variance of the 4-neighbour Laplacian of luma at a fixed analysis scale: low means blurred. */
  laplacianVariance: number;
  /** Share of analysis cells (16×16 grid) that are blown out (≥ 90 % of pixels at luma ≥ 250). */
  glareCellShare: number;
}

/** Luma (BT.601) of RGB pixels, area-averaged down so the longest side is at most maxSide. */
export function lumaAt(pixels: RawPixels, maxSide: number): { data: Float32Array; width: number; height: number } {
  const step = Math.max(1, Math.ceil(Math.max(pixels.width, pixels.height) / maxSide));
  const width = Math.floor(pixels.width / step);
  const height = Math.floor(pixels.height / step);
  const data = new Float32Array(Math.max(0, width * height));
  const src = pixels.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < step; dy++) {
        let i = ((y * step + dy) * pixels.width + x * step) * 3;
        for (let dx = 0; dx < step; dx++, i += 3) sum += 0.299 * src[i]! + 0.587 * src[i + 1]! + 0.114 * src[i + 2]!;
      }
      data[y * width + x] = sum / (step * step);
    }
  }
  return { data, width, height };
}

const ANALYSIS_SIDE = 640;
const GRID = 16;

export function measureQuality(pixels: RawPixels, originalWidth: number, originalHeight: number): QualityMeasures {
  const luma = lumaAt(pixels, ANALYSIS_SIDE);
  const { data, width, height } = luma;
  const n = data.length || 1;
  let sum = 0;
  let sumSq = 0;
  for (const v of data) {
    sum += v;
    sumSq += v * v;
  }
  const meanLuma = sum / n;
  const stdLuma = Math.sqrt(Math.max(0, sumSq / n - meanLuma * meanLuma));
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[Math.min(255, Math.round(v))]!++;
  let medianLuma = 0;
  for (let seen = 0; medianLuma < 255 && (seen += histogram[medianLuma]!) < n / 2; ) medianLuma++;

  let lapSum = 0;
  let lapSumSq = 0;
  let lapCount = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = data[i - 1]! + data[i + 1]! + data[i - width]! + data[i + width]! - 4 * data[i]!;
      lapSum += lap;
      lapSumSq += lap * lap;
      lapCount++;
    }
  }
  const lapMean = lapCount ? lapSum / lapCount : 0;
  const laplacianVariance = lapCount ? lapSumSq / lapCount - lapMean * lapMean : 0;

  let blownCells = 0;
  let cells = 0;
  const cellW = width / GRID;
  const cellH = height / GRID;
  if (cellW >= 1 && cellH >= 1) {
    for (let gy = 0; gy < GRID; gy++) {
      for (let gx = 0; gx < GRID; gx++) {
        let bright = 0;
        let total = 0;
        for (let y = Math.floor(gy * cellH); y < Math.floor((gy + 1) * cellH); y++) {
          for (let x = Math.floor(gx * cellW); x < Math.floor((gx + 1) * cellW); x++) {
            total++;
            if (data[y * width + x]! >= 250) bright++;
          }
        }
        cells++;
        if (total > 0 && bright / total >= 0.9) blownCells++;
      }
    }
  }
  return {
    shortSide: Math.min(originalWidth, originalHeight),
    meanLuma: round(meanLuma),
    medianLuma,
    stdLuma: round(stdLuma),
    laplacianVariance: round(laplacianVariance),
    glareCellShare: cells ? round(blownCells / cells, 4) : 0,
  };
}

function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
