// Face alignment on the eye centres: the document portrait and the selfie are cut the same way (eyes level, at the
// same place and distance in a square crop) before either reaches a face-description model, so the embedding sees
// the same geometry whatever the camera's roll, distance or framing.
import type { RawPixels } from './intake.ts';

export type Point = readonly [number, number];

export interface EyeCentres {
  /** The subject's left eye (on the right of an unmirrored picture). */
  left: Point;
  right: Point;
}

/** Where the eyes go in the square crop, in fractions of its side. */
export interface AlignmentTemplate {
  /** Distance between the eye centres. */
  eyeDistance: number;
  /** Height of the eye line from the top. */
  eyeLine: number;
}

/**
 * The square crop of `size` px with the eyes level at the template's place, bilinear-sampled from the image
 * (outside the image: mid grey). RGB interleaved, 0–1.
 */
export function alignFace(pixels: RawPixels, eyes: EyeCentres, size: number, template: AlignmentTemplate): Float32Array {
  // The picture's left-hand eye is the subject's right one.
  const [x1, y1] = eyes.right;
  const [x2, y2] = eyes.left;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const distance = Math.hypot(dx, dy) || 1;
  // Source pixels per crop pixel, and the unit vectors of the crop's axes in the source image.
  const scale = distance / (template.eyeDistance * size);
  const ux = (dx / distance) * scale;
  const uy = (dy / distance) * scale;
  const centreX = (x1 + x2) / 2;
  const centreY = (y1 + y2) / 2;
  const out = new Float32Array(size * size * 3);
  const { data, width, height } = pixels;
  for (let v = 0; v < size; v++) {
    const cy = v + 0.5 - template.eyeLine * size;
    for (let u = 0; u < size; u++) {
      const cx = u + 0.5 - size / 2;
      // Rotate the crop offset into the source image (x axis along the eye line, y axis perpendicular to it).
      const sx = centreX + cx * ux - cy * uy - 0.5;
      const sy = centreY + cx * uy + cy * ux - 0.5;
      const o = (v * size + u) * 3;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const at = (x: number, y: number) =>
          x < 0 || y < 0 || x >= width || y >= height ? 128 : data[(y * width + x) * 3 + c]!;
        const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
        const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
        out[o + c] = (top * (1 - fy) + bottom * fy) / 255;
      }
    }
  }
  return out;
}
