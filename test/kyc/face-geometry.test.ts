// Alignment on the eyes and the measures taken on a region of the picture, on generated pixels.
import { describe, expect, it } from 'vitest';
import { alignFace } from '../../src/kyc/align.ts';
import type { RawPixels } from '../../src/kyc/intake.ts';
import { contentBox, measureQuality } from '../../src/kyc/quality.ts';

/** A grey picture with a red dot at each given point. */
function withDots(width: number, height: number, dots: [number, number][]): RawPixels {
  const data = new Uint8Array(width * height * 3).fill(100);
  for (const [cx, cy] of dots) {
    for (let y = Math.round(cy) - 2; y <= Math.round(cy) + 2; y++) {
      for (let x = Math.round(cx) - 2; x <= Math.round(cx) + 2; x++) data.set([255, 0, 0], (y * width + x) * 3);
    }
  }
  return { data, width, height };
}

/** Centre of the red pixels of an aligned crop, per half (left, right). */
function redCentres(crop: Float32Array, size: number): [number, number][] {
  const halves = [
    [0, 0, 0],
    [0, 0, 0],
  ];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      if (crop[i]! > 0.7 && crop[i + 1]! < 0.3) {
        const half = halves[x < size / 2 ? 0 : 1]!;
        half[0]! += x + 0.5;
        half[1]! += y + 0.5;
        half[2]!++;
      }
    }
  }
  return halves.map(([sx, sy, n]) => [sx! / n!, sy! / n!]);
}

const TEMPLATE = { eyeDistance: 0.34, eyeLine: 0.4 };

describe('alignFace', () => {
  it('puts tilted eyes level at the template place, whatever their distance in the picture', () => {
    const size = 112;
    for (const [right, left] of [
      [[300, 420], [420, 380]],
      [[80, 60], [120, 75]],
    ] as [[number, number], [number, number]][]) {
      const crop = alignFace(withDots(640, 640, [right, left]), { right, left }, size, TEMPLATE);
      const [a, b] = redCentres(crop, size);
      const expectedGap = TEMPLATE.eyeDistance * size;
      expect(Math.abs(a![1] - b![1])).toBeLessThan(1.5);
      expect(Math.abs(a![1] - TEMPLATE.eyeLine * size)).toBeLessThan(1.5);
      expect(Math.abs(b![0] - a![0] - expectedGap)).toBeLessThan(1.5);
      expect(Math.abs((a![0] + b![0]) / 2 - size / 2)).toBeLessThan(1.5);
    }
  });
});

describe('quality on a region', () => {
  /** A mid-grey textured picture inside black bars. */
  function letterbox(): RawPixels {
    const width = 1600;
    const height = 900;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 500; x < 1100; x++) data.fill(((x + y) % 7) * 10 + 120, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
    return { data, width, height };
  }

  it('leaves uniform bars out of the content box', () => {
    const [x, y, width, height] = contentBox(letterbox());
    expect(x).toBeGreaterThanOrEqual(495);
    expect(x).toBeLessThanOrEqual(505);
    expect(x + width).toBeGreaterThanOrEqual(1095);
    expect(x + width).toBeLessThanOrEqual(1105);
    expect([y, height]).toEqual([0, 900]);
  });

  it('measures light on the content, and on the face when given one', () => {
    const picture = letterbox();
    const content = measureQuality(picture, 1600, 900);
    expect(content).toMatchObject({ region: 'content', faceWidth: null });
    expect(content.meanLuma).toBeGreaterThan(120);
    const face = measureQuality(picture, 3200, 1800, [600, 200, 200, 260]);
    expect(face).toMatchObject({ region: 'face', faceWidth: 400 });
    expect(face.meanLuma).toBeGreaterThan(120);
  });
});
