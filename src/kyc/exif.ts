// Reads the few EXIF/XMP/PNG-text fields the forensic checks need. sharp hands over the raw EXIF block but
// does not parse it; a full EXIF library would be a dependency for four tags.

export interface ImageProvenance {
  /** EXIF Software, XMP CreatorTool or PNG "Software" text, as written by the producing program. */
  software: string | null;
  /** EXIF DateTimeOriginal (capture), ISO 8601 without zone as EXIF has none. */
  capturedAt: string | null;
  /** EXIF DateTime (last modification). */
  modifiedAt: string | null;
  cameraMake: string | null;
}

const TAG_MAKE = 0x010f;
const TAG_SOFTWARE = 0x0131;
const TAG_DATETIME = 0x0132;
const TAG_EXIF_IFD = 0x8769;
const TAG_DATETIME_ORIGINAL = 0x9003;
const TYPE_ASCII = 2;
const TYPE_LONG = 4;

type Tags = Map<number, string | number>;

function readIfd(tiff: Buffer, offset: number, little: boolean, tags: Tags): void {
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (offset + 2 > tiff.length) return;
  const count = u16(offset);
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + i * 12;
    if (entry + 12 > tiff.length) return;
    const tag = u16(entry);
    const type = u16(entry + 2);
    const length = u32(entry + 4);
    if (type === TYPE_ASCII) {
      const start = length <= 4 ? entry + 8 : u32(entry + 8);
      if (start + length > tiff.length) continue;
      tags.set(tag, tiff.toString('latin1', start, start + length).replace(/\0+$/, '').trim());
    } else if (type === TYPE_LONG && length === 1) {
      tags.set(tag, u32(entry + 8));
    }
  }
}

function parseExif(exif: Buffer): Tags {
  const tags: Tags = new Map();
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 8) return tags;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return tags;
  const little = order === 'II';
  try {
    readIfd(tiff, little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4), little, tags);
    const exifIfd = tags.get(TAG_EXIF_IFD);
    if (typeof exifIfd === 'number') readIfd(tiff, exifIfd, little, tags);
  } catch {
    // A truncated or malformed EXIF block yields whatever was read before the damage.
  }
  return tags;
}

/** "2024:05:03 10:20:30" → "2024-05-03T10:20:30" */
function exifDate(value: string | number | undefined): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}` : null;
}

function xmpCreatorTool(xmp: Buffer | undefined): string | null {
  if (!xmp) return null;
  const text = xmp.toString('utf8');
  const m = /CreatorTool(?:="([^"]*)"|>([^<]*)<)/.exec(text) ?? /photoshop:History(?:="([^"]*)"|>([^<]*)<)/.exec(text);
  return m ? (m[1] ?? m[2] ?? '').trim() || null : null;
}

export function readProvenance(meta: {
  exif?: Buffer;
  xmp?: Buffer;
  comments?: { keyword: string; text: string }[];
}): ImageProvenance {
  const tags = meta.exif ? parseExif(meta.exif) : new Map<number, string | number>();
  const pngSoftware = meta.comments?.find((c) => c.keyword.toLowerCase() === 'software')?.text ?? null;
  const exifSoftware = tags.get(TAG_SOFTWARE);
  const make = tags.get(TAG_MAKE);
  return {
    software: (typeof exifSoftware === 'string' && exifSoftware) || xmpCreatorTool(meta.xmp) || pngSoftware,
    capturedAt: exifDate(tags.get(TAG_DATETIME_ORIGINAL)),
    modifiedAt: exifDate(tags.get(TAG_DATETIME)),
    cameraMake: typeof make === 'string' && make ? make : null,
  };
}
