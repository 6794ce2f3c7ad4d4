// How an MRZ cell is cut and sampled for the glyph templates of mrz-pitch.ts (round 24, issue #14). Its own module,
// free of the templates themselves (mrz-glyphs.json), so that scripts/make-mrz-glyphs.ts, which builds that file
// with exactly this cut, needs no earlier copy of it to run.

export const GLYPH_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Template size: a cell (pitch × line height) is sampled to this many points. */
export const GLYPH_WIDTH = 12;
export const GLYPH_HEIGHT = 18;

export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The ink (255 − grey) of the rectangle x0–x1 × y0–y1 of `image`, sampled to GLYPH_WIDTH × GLYPH_HEIGHT points
 * (4 × 4 per point, averaged); outside the image is paper.
 */
export function sampleCell(image: Grey, x0: number, y0: number, x1: number, y1: number): Float64Array {
  const out = new Float64Array(GLYPH_WIDTH * GLYPH_HEIGHT);
  const sub = 4;
  for (let j = 0; j < GLYPH_HEIGHT; j++) {
    for (let i = 0; i < GLYPH_WIDTH; i++) {
      let sum = 0;
      for (let b = 0; b < sub; b++) {
        for (let a = 0; a < sub; a++) {
          const x = Math.floor(x0 + ((i + (a + 0.5) / sub) * (x1 - x0)) / GLYPH_WIDTH);
          const y = Math.floor(y0 + ((j + (b + 0.5) / sub) * (y1 - y0)) / GLYPH_HEIGHT);
          sum += x < 0 || y < 0 || x >= image.width || y >= image.height ? 255 : image.data[y * image.width + x]!;
        }
      }
      out[j * GLYPH_WIDTH + i] = 255 - sum / (sub * sub);
    }
  }
  return out;
}

/** The box of the dark pixels (grey under 128) of `image`: where a rendered line's ink lies. */
export function inkBox(image: Grey): { x0: number; x1: number; y0: number; y1: number } {
  let [x0, x1, y0, y1] = [Infinity, -1, Infinity, -1];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x]! >= 128) continue;
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x + 1), Math.min(y0, y), Math.max(y1, y + 1)];
    }
  }
  return { x0, x1, y0, y1 };
}
