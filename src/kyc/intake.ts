// Image intake: strict base64, type from magic bytes, a full decode with sharp under byte and pixel limits, EXIF
// orientation applied. Anything that is not a decodable JPEG/PNG/WebP is an ImageIntakeError (the route's 400);
// a decodable image that is merely unusable (tiny, blank, blurred…) is accepted here and judged by the checks.
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { readProvenance, type ImageProvenance } from './exif.ts';

export type ImageField = 'documentImage' | 'selfieImage';
export type ImageFormat = 'jpeg' | 'png' | 'webp';

export type ImageIntakeErrorCode =
  | 'missing'
  | 'invalid_base64'
  | 'too_large'
  | 'unsupported_type'
  | 'too_many_pixels'
  | 'undecodable';

export class ImageIntakeError extends Error {
  readonly field: ImageField;
  readonly code: ImageIntakeErrorCode;
  constructor(field: ImageField, code: ImageIntakeErrorCode, message: string) {
    super(`${field}: ${message}`);
    this.name = 'ImageIntakeError';
    this.field = field;
    this.code = code;
  }
}

export interface ImageLimits {
  /** Decoded (binary) size. */
  maxBytes: number;
  /** width × height before decoding: larger images are refused unread (decompression bombs). */
  maxPixels: number;
  /** Longest side of the working copy handed to the analysers. */
  workingSize: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 50_000_000,
  workingSize: 1600,
};

export interface RawPixels {
  /** Interleaved RGB, 8 bits per channel. */
  data: Uint8Array;
  width: number;
  height: number;
}

/** A sharp pipeline over `pixels`. */
export const pipelineOf = (pixels: RawPixels) => sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } });

/** What an RGB `pipeline` outputs, as RawPixels. */
export async function rawPixelsOf(pipeline: Sharp): Promise<RawPixels> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export interface DecodedImage {
  field: ImageField;
  format: ImageFormat;
  byteLength: number;
  sha256: string;
  /** Size after EXIF orientation, before any downscaling. */
  width: number;
  height: number;
  /** Oriented, downscaled to ImageLimits.workingSize at most. */
  pixels: RawPixels;
  /**
   * The document's upload as received, kept only when the working copy is smaller than the upload: the analysis cuts
   * a small document out of it at full resolution (skew.ts cutOutOfUpload). Not kept for a selfie, which is never
   * cut (it would be copied to the analysis worker for nothing). Never stored or reported.
   */
  encoded?: Uint8Array;
  provenance: ImageProvenance;
}

const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL_PREFIX = /^data:image\/[a-z0-9.+-]+;base64,/i;

/** Strict base64 (standard alphabet, padded, whitespace-free apart from line breaks); a data-URL prefix is tolerated. */
export function decodeBase64Image(field: ImageField, value: unknown, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): Buffer {
  if (typeof value !== 'string' || value.length === 0) throw new ImageIntakeError(field, 'missing', 'an image is required');
  const body = value.replace(DATA_URL_PREFIX, '').replace(/\r?\n/g, '');
  if (body.length === 0 || body.length % 4 !== 0 || !BASE64_BODY.test(body)) {
    throw new ImageIntakeError(field, 'invalid_base64', 'not valid base64');
  }
  if ((body.length / 4) * 3 > limits.maxBytes + 2) {
    throw new ImageIntakeError(field, 'too_large', `larger than ${limits.maxBytes} bytes`);
  }
  return Buffer.from(body, 'base64');
}

export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 &&
    bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a
  ) {
    return 'png';
  }
  if (
    bytes.length >= 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP'
  ) {
    return 'webp';
  }
  return null;
}

/**
 * 'truncated' refuses cut-off and corrupt data yet tolerates the benign warnings some phone encoders trigger. Every
 * decode of an upload uses it (skew.ts cuts the upload again): sharp's default, 'warning', fails where intake passed.
 */
export const UPLOAD_FAIL_ON = 'truncated' as const;

/**
 * Decodes one request image (base64 string or bytes) completely. Throws ImageIntakeError naming the field when the
 * input is not a decodable JPEG, PNG or WebP within the limits.
 */
export async function decodeImage(
  field: ImageField,
  input: string | Uint8Array,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
): Promise<DecodedImage> {
  const bytes = typeof input === 'string' ? decodeBase64Image(field, input, limits) : Buffer.from(input);
  if (bytes.length > limits.maxBytes) throw new ImageIntakeError(field, 'too_large', `larger than ${limits.maxBytes} bytes`);
  const format = sniffImageFormat(bytes);
  if (!format) throw new ImageIntakeError(field, 'unsupported_type', 'not a JPEG, PNG or WebP image');

  const options = { limitInputPixels: limits.maxPixels, failOn: UPLOAD_FAIL_ON };
  let meta: Metadata;
  try {
    // Header only: the pixel limit is checked below so that a bomb is reported as such.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageIntakeError(field, 'undecodable', 'the image cannot be decoded');
  }
  if (meta.format !== format) throw new ImageIntakeError(field, 'unsupported_type', 'content does not match its signature');
  if (meta.width * meta.height > limits.maxPixels) {
    throw new ImageIntakeError(field, 'too_many_pixels', `more than ${limits.maxPixels} pixels`);
  }

  let raw: { data: Buffer; info: OutputInfo };
  try {
    // Decoding to raw forces every pixel through the decoder, so truncated or corrupt data fails here.
    raw = await sharp(bytes, options)
      .rotate()
      .resize({ width: limits.workingSize, height: limits.workingSize, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ImageIntakeError(field, 'undecodable', 'the image cannot be decoded');
  }
  const rotated = (meta.orientation ?? 1) >= 5;
  const [width, height] = rotated ? [meta.height, meta.width] : [meta.width, meta.height];
  return {
    field,
    format,
    byteLength: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    width,
    height,
    pixels: { data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), width: raw.info.width, height: raw.info.height },
    ...(field === 'documentImage' && raw.info.width < width ? { encoded: bytes } : {}),
    provenance: readProvenance(meta),
  };
}
