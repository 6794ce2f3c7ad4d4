// Image quality measurements on the decoded working copy. Only measurements here: the thresholds that turn them
// into reasons live in decision.ts so the rule is in one place.
// Light, contrast, blur and glare are measured where they matter: on the face of a selfie (a well-lit face in a
// dark room or with black letterbox bars is fine), on the picture without uniform borders otherwise.
import type { RawPixels } from './intake.ts';

/** [x, y, width, height] in the analysed (working copy's) pixels. */
export type Box = readonly [number, number, number, number];

export interface QualityMeasures {
  /** Shortest side of the original image, px. */
  shortSide: number;
  /** What the measures below were taken on: the face (selfie with a face) or the picture less uniform borders. */
  region: 'face' | 'content';
  /** Width of the measured face in the original image's pixels; null when measured on the content. */
  faceWidth: number | null;
  /** Mean and standard deviation of luma (0–255). */
  meanLuma: number;
  medianLuma: number;
  stdLuma: number;
  /** Variance of the 4-neighbour Laplacian of luma at a fixed analysis scale (640 px picture, 160 px face): low means blurred. */
  laplacianVariance: number;
  /** Share of analysis cells (16×16 grid) that are blown out (≥ 90 % of pixels at luma ≥ 250). */
  glareCellShare: number;
}

/** Luma (BT.601) of RGB pixels (of a box of them), area-averaged down so the longest side is at most maxSide. */
export function lumaAt(
  pixels: RawPixels,
  maxSide: number,
  box: Box = [0, 0, pixels.width, pixels.height],
): { data: Float32Array; width: number; height: number } {
  const left = clampTo(Math.round(box[0]), pixels.width);
  const top = clampTo(Math.round(box[1]), pixels.height);
  const boxWidth = clampTo(Math.round(box[2]), pixels.width - left);
  const boxHeight = clampTo(Math.round(box[3]), pixels.height - top);
  const step = Math.max(1, Math.ceil(Math.max(boxWidth, boxHeight) / maxSide));
  const width = Math.floor(boxWidth / step);
  const height = Math.floor(boxHeight / step);
  const data = new Float32Array(Math.max(0, width * height));
  const src = pixels.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < step; dy++) {
        let i = ((top + y * step + dy) * pixels.width + left + x * step) * 3;
        for (let dx = 0; dx < step; dx++, i += 3) sum += 0.299 * src[i]! + 0.587 * src[i + 1]! + 0.114 * src[i + 2]!;
      }
      data[y * width + x] = sum / (step * step);
    }
  }
  return { data, width, height };
}

const clampTo = (value: number, max: number) => Math.max(0, Math.min(max, value));

const ANALYSIS_SIDE = 640;
/** A face is analysed at about this width whatever its distance, so one blur limit fits near and far faces. */
const FACE_ANALYSIS_SIDE = 160;
const GRID = 16;
/** A border row or column is part of a bar (letterbox, scanner margin) while its luma varies by less than this. */
const UNIFORM_MAX_STD = 3;

/** The picture without its uniform borders (black letterbox bars, flat margins); the whole picture if all uniform. */
export function contentBox(pixels: RawPixels): Box {
  const luma = lumaAt(pixels, ANALYSIS_SIDE);
  const { data, width, height } = luma;
  const uniform = (count: number, at: (k: number) => number) => {
    let sum = 0;
    let sumSq = 0;
    for (let k = 0; k < count; k++) {
      const v = at(k);
      sum += v;
      sumSq += v * v;
    }
    const mean = sum / count;
    return Math.sqrt(Math.max(0, sumSq / count - mean * mean)) < UNIFORM_MAX_STD;
  };
  const row = (y: number) => uniform(width, (x) => data[y * width + x]!);
  const column = (x: number, y0: number, y1: number) => uniform(y1 - y0, (k) => data[(y0 + k) * width + x]!);
  let top = 0;
  let bottom = height;
  while (top < bottom && row(top)) top++;
  while (bottom > top && row(bottom - 1)) bottom--;
  let left = 0;
  let right = width;
  while (left < right && bottom > top && column(left, top, bottom)) left++;
  while (right > left && bottom > top && column(right - 1, top, bottom)) right--;
  if (right - left < width / 8 || bottom - top < height / 8) return [0, 0, pixels.width, pixels.height];
  const stepX = pixels.width / width;
  const stepY = pixels.height / height;
  return [left * stepX, top * stepY, (right - left) * stepX, (bottom - top) * stepY];
}

/**
 * face: the box of the face the measures are taken on (selfie); without it, the picture less its uniform borders.
 * originalWidth/Height: the image before it was scaled to the working copy.
 */
export function measureQuality(
  pixels: RawPixels,
  originalWidth: number,
  originalHeight: number,
  face: Box | null = null,
): QualityMeasures {
  const luma = face ? lumaAt(pixels, FACE_ANALYSIS_SIDE, face) : lumaAt(pixels, ANALYSIS_SIDE, contentBox(pixels));
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
    region: face ? 'face' : 'content',
    faceWidth: face ? Math.round((face[2] * originalWidth) / pixels.width) : null,
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
