// DejaVu Sans from the `dejavu-fonts-ttf` npm package: one embedded font family covering Latin, Cyrillic,
// Greek, Arabic and Hebrew, so a report never depends on fonts installed on the host.
//
// Parsing DejaVu's tables costs more than the rest of a report, so each font is parsed once per process with
// fontkit (pdfkit's own font engine; pdfkit accepts a parsed fontkit font as a font source, which its type
// definitions do not say, hence the cast). fontkit also caches Glyph objects, and a cached glyph keeps the
// code points of whichever path created it first (a subset's composite component has none): shared across
// documents, that cache would make a PDF's text mapping and bytes depend on what the process rendered before.
// `fontsForNewDocument` therefore empties the glyph cache before every document. This is safe because a
// document is laid out and its fonts embedded synchronously, from `new PDFDocument` to `doc.end()`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

const require = createRequire(import.meta.url);

type FontWithGlyphCache = Font & { _glyphs: Record<number, unknown> };

export interface ReportFonts {
  regular: PDFKit.Mixins.PDFFontSource;
  bold: PDFKit.Mixins.PDFFontSource;
}

function load(file: string): FontWithGlyphCache {
  const font = create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as FontWithGlyphCache;
  if (typeof font._glyphs !== 'object') throw new Error('fontkit changed: the glyph cache this module resets is gone');
  return font;
}

let parsed: { regular: FontWithGlyphCache; bold: FontWithGlyphCache } | undefined;

export function fontsForNewDocument(): ReportFonts {
  parsed ??= { regular: load('DejaVuSans.ttf'), bold: load('DejaVuSans-Bold.ttf') };
  parsed.regular._glyphs = {};
  parsed.bold._glyphs = {};
  return {
    regular: parsed.regular as unknown as PDFKit.Mixins.PDFFontSource,
    bold: parsed.bold as unknown as PDFKit.Mixins.PDFFontSource,
  };
}
