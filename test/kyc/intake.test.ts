import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { deflateSync } from 'node:zlib';
import { decodeBase64Image, decodeImage, ImageIntakeError, sniffImageFormat, DEFAULT_IMAGE_LIMITS } from '../../src/kyc/intake.ts';

const photo = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: '#3366aa' } })
    .composite([{ input: Buffer.from('<svg width="320" height="200"><circle cx="160" cy="100" r="60" fill="#fc0"/></svg>') }]);

async function intakeError(field: 'documentImage' | 'selfieImage', input: string | Uint8Array, limits = DEFAULT_IMAGE_LIMITS) {
  const error = await decodeImage(field, input, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImageIntakeError);
  expect((error as ImageIntakeError).field).toBe(field);
  expect((error as Error).message).toContain(field);
  return (error as ImageIntakeError).code;
}

/** A PNG whose header claims the given size; the pixel data is a few bytes (a decompression-bomb shape). */
function pngClaiming(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('image intake', () => {
  it('decodes JPEG, PNG and WebP, with or without a data-URL prefix', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const bytes = await photo().toFormat(format).toBuffer();
      expect(sniffImageFormat(bytes)).toBe(format);
      const plain = await decodeImage('documentImage', bytes.toString('base64'));
      const dataUrl = await decodeImage('documentImage', `data:image/${format};base64,${bytes.toString('base64')}`);
      expect(plain.format).toBe(format);
      expect([plain.width, plain.height]).toEqual([320, 200]);
      expect(plain.pixels.data.length).toBe(320 * 200 * 3);
      expect(dataUrl.sha256).toBe(plain.sha256);
    }
  });

  it('applies EXIF orientation', async () => {
    const bytes = await photo().jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const image = await decodeImage('selfieImage', bytes);
    expect([image.width, image.height]).toEqual([200, 320]);
    expect([image.pixels.width, image.pixels.height]).toEqual([200, 320]);
  });

  it('reads the editing software and dates from EXIF', async () => {
    const bytes = await photo()
      .jpeg()
      .withExif({ IFD0: { Software: 'GIMP 2.10.34', DateTime: '2025:01:02 10:00:00' } })
      .toBuffer();
    const image = await decodeImage('documentImage', bytes);
    expect(image.provenance.software).toBe('GIMP 2.10.34');
    expect(image.provenance.modifiedAt).toBe('2025-01-02T10:00:00');
  });

  it('downscales the working copy but reports the original size', async () => {
    const bytes = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#888' } }).png().toBuffer();
    const image = await decodeImage('documentImage', bytes);
    expect([image.width, image.height]).toEqual([3000, 1000]);
    expect(image.pixels.width).toBe(DEFAULT_IMAGE_LIMITS.workingSize);
  });

  it("keeps a downscaled document's upload for cuts at full resolution, and not a selfie's (never cut)", async () => {
    const bytes = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#888' } }).png().toBuffer();
    expect(Buffer.from((await decodeImage('documentImage', bytes)).encoded!).equals(bytes)).toBe(true);
    expect((await decodeImage('selfieImage', bytes)).encoded).toBeUndefined();
    expect((await decodeImage('documentImage', await photo().png().toBuffer())).encoded).toBeUndefined();
  });

  it('refuses missing and malformed base64', async () => {
    expect(await intakeError('documentImage', '')).toBe('missing');
    expect(await intakeError('selfieImage', 'not base64 at all!')).toBe('invalid_base64');
    expect(await intakeError('selfieImage', 'QUJD=')).toBe('invalid_base64'); // length not a multiple of 4
    expect(await intakeError('documentImage', 'QU-_')).toBe('invalid_base64'); // URL-safe alphabet
    expect(() => decodeBase64Image('documentImage', 42)).toThrow(ImageIntakeError);
  });

  it('refuses bytes that are not a JPEG, PNG or WebP', async () => {
    const text = Buffer.from('hello, this is certainly not an image').toString('base64');
    expect(await intakeError('documentImage', text)).toBe('unsupported_type');
    const gif = await photo().gif().toBuffer();
    expect(await intakeError('selfieImage', gif)).toBe('unsupported_type');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await intakeError('selfieImage', svg)).toBe('unsupported_type');
  });

  it('refuses truncated and corrupt images', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const bytes = await photo().toFormat(format).toBuffer();
      expect(await intakeError('documentImage', bytes.subarray(0, Math.floor(bytes.length / 2)))).toBe('undecodable');
    }
    const jpeg = await photo().jpeg().toBuffer();
    const corrupt = Buffer.concat([jpeg.subarray(0, 3), Buffer.alloc(500, 0x41)]);
    expect(await intakeError('selfieImage', corrupt)).toBe('undecodable');
  });

  it('refuses decompression bombs before decoding them', async () => {
    expect(await intakeError('documentImage', pngClaiming(100_000, 100_000))).toBe('too_many_pixels');
    const limits = { ...DEFAULT_IMAGE_LIMITS, maxPixels: 100 * 100 };
    const honest = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } }).png().toBuffer();
    expect(await intakeError('selfieImage', honest, limits)).toBe('too_many_pixels');
  });

  it('refuses images above the byte limit', async () => {
    const limits = { ...DEFAULT_IMAGE_LIMITS, maxBytes: 1000 };
    const bytes = await photo().png().toBuffer();
    expect(bytes.length).toBeGreaterThan(1000);
    expect(await intakeError('documentImage', bytes.toString('base64'), limits)).toBe('too_large');
    expect(await intakeError('documentImage', bytes, limits)).toBe('too_large');
  });
});
