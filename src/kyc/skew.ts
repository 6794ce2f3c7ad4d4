// Skew of the text on a document photo, by projection profile: rotated by the right angle, text lines fall into
// few rows, so the histogram of dark pixels over rows is at its most uneven (highest variance).
import sharp from 'sharp';
import { pipelineOf, rawPixelsOf, UPLOAD_FAIL_ON, type DecodedImage, type RawPixels } from './intake.ts';

/** Analysis width: enough for MRZ lines of ~10 px characters, small enough to stay a few milliseconds. */
const ANALYSIS_WIDTH = 480;
const MAX_SKEW_DEGREES = 8;
/** Below this tilt tesseract copes by itself. */
export const MIN_SKEW_DEGREES = 1;
const STEP_DEGREES = 0.5;
/** A sampled pixel counts when its brightness differs this much from its right neighbour's: the sides of strokes. */
const MIN_EDGE = 50;

/** Degrees the text is turned clockwise (positive: lines go down to the right), within ±MAX_SKEW_DEGREES. */
export function estimateSkew(pixels: RawPixels): number {
  // Vertical stroke edges rather than dark pixels: dark areas (a table under the page, a header band) would
  // outweigh the text.
  const step = Math.max(1, Math.floor(pixels.width / ANALYSIS_WIDTH));
  const xs: number[] = [];
  const ys: number[] = [];
  const luma = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 3;
    return (pixels.data[i]! * 299 + pixels.data[i + 1]! * 587 + pixels.data[i + 2]! * 114) / 1000;
  };
  for (let y = 0; y < pixels.height; y += step) {
    for (let x = 0; x + step < pixels.width; x += step) {
      if (Math.abs(luma(x, y) - luma(x + step, y)) >= MIN_EDGE) xs.push(x / step), ys.push(y / step);
    }
  }
  if (xs.length < 100) return 0;
  const rows = Math.ceil((pixels.width + pixels.height) / step) + 2;
  let best = { angle: 0, variance: -1 };
  for (let angle = -MAX_SKEW_DEGREES; angle <= MAX_SKEW_DEGREES; angle += STEP_DEGREES) {
    const radians = (angle * Math.PI) / 180;
    const [sin, cos] = [Math.sin(radians), Math.cos(radians)];
    const histogram = new Float64Array(rows);
    const offset = Math.ceil(pixels.width / step);
    for (let k = 0; k < xs.length; k++) histogram[Math.round(ys[k]! * cos - xs[k]! * sin) + offset]!++;
    let squares = 0;
    for (const value of histogram) squares += value * value;
    if (squares > best.variance) best = { angle, variance: squares };
  }
  return best.angle;
}

/** The image turned back by `skew` degrees, corners filled white like paper. */
export async function deskew(pixels: RawPixels, skew: number): Promise<RawPixels> {
  return rawPixelsOf(pipelineOf(pixels).rotate(-skew, { background: '#ffffff' }).removeAlpha());
}

/** Columns of the coverage grid: a text line covers most of them, a label or a portrait few. */
const BANDS_COLUMNS = 32;
/** An MRZ line spans most of the document: at least this share of columns in one unbroken run. */
const MRZ_MIN_SPAN = 0.6;

type ColumnRuns = { rows: number; window: number; run: (r: number) => [number, number] };

/**
 * columnRuns of each image seen, computed once: one check asks for them over the same pixels up to four times (the
 * reading's closer looks search the band and the region, mrzTurn the band again, the visual zone the region and the
 * band again). Images are never changed in place, so the pixels object is the key.
 */
const columnRunsSeen = new WeakMap<RawPixels, ColumnRuns>();

/**
 * A photo's longest run of text columns per row: per sampled row the covered columns (a stroke edge seen in them),
 * merged over a window of ~1 % of the height (a character is a few sampled rows high); `run(r)` the longest
 * unbroken run of covered columns of row r, [start, end).
 */
function columnRuns(pixels: RawPixels): ColumnRuns {
  let runs = columnRunsSeen.get(pixels);
  if (!runs) columnRunsSeen.set(pixels, (runs = measureColumnRuns(pixels)));
  return runs;
}

function measureColumnRuns(pixels: RawPixels): ColumnRuns {
  const step = Math.max(1, Math.floor(pixels.width / ANALYSIS_WIDTH));
  const rows = Math.floor(pixels.height / step);
  const columnWidth = pixels.width / BANDS_COLUMNS;
  const luma = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 3;
    return (pixels.data[i]! * 299 + pixels.data[i + 1]! * 587 + pixels.data[i + 2]! * 114) / 1000;
  };
  const covered: Uint8Array[] = [];
  for (let r = 0; r < rows; r++) {
    const y = r * step;
    const cells = new Uint8Array(BANDS_COLUMNS);
    for (let x = 0; x + step < pixels.width; x += step) {
      if (Math.abs(luma(x, y) - luma(x + step, y)) >= MIN_EDGE) cells[Math.floor(x / columnWidth)] = 1;
    }
    covered.push(cells);
  }
  const window = Math.max(1, Math.round(rows * 0.01));
  const longestRun = (r: number): [number, number] => {
    const cells = new Uint8Array(BANDS_COLUMNS);
    for (let k = Math.max(0, r - window); k <= Math.min(rows - 1, r + window); k++) {
      for (let c = 0; c < BANDS_COLUMNS; c++) cells[c] ||= covered[k]![c]!;
    }
    let best: [number, number] = [0, 0];
    let start = 0;
    for (let c = 0; c <= BANDS_COLUMNS; c++) {
      if (c < BANDS_COLUMNS && cells[c]) continue;
      if (c - start > best[1] - best[0]) best = [start, c];
      start = c + 1;
    }
    return best;
  };
  const longest: [number, number][] = [];
  return { rows, window, run: (r) => (longest[r] ??= longestRun(r)) };
}

/**
 * The lowest cluster of rows whose longest column run is at least `minSpan` of the columns (with `sameBlock`, also
 * overlapping the first such row's run by half of the shorter: the same text block, not a line of another one beside
 * it): the rows (top, bottom) and the union of their runs (columns).
 */
function lowestTextCluster(pixels: RawPixels, minSpan: number, sameBlock = false) {
  const { rows, window, run } = columnRuns(pixels);
  let bottom = -1;
  let top = -1;
  let first: [number, number] = [0, 0];
  let columns: [number, number] = [0, 0];
  for (let r = rows - 1; r >= 0; r--) {
    const [start, end] = run(r);
    const overlap = Math.min(end, first[1]) - Math.max(start, first[0]);
    const isLine = end - start >= minSpan * BANDS_COLUMNS && (bottom < 0 || !sameBlock || overlap >= 0.5 * Math.min(end - start, first[1] - first[0]));
    if (isLine) {
      if (bottom < 0) (bottom = r), (first = [start, end]), (columns = [start, end]);
      top = r;
      columns = [Math.min(columns[0], start), Math.max(columns[1], end)];
    } else if (bottom >= 0 && top - r > 6 * window) break; // a gap of more than a line or two ends the cluster
  }
  if (bottom < 0) return null;
  const margin = Math.max(window * 2, (bottom - top) * 0.15);
  // lines: the rows of the text itself, without the margin.
  return { top: Math.max(0, (top - margin) / rows), bottom: Math.min(1, (bottom + margin + 1) / rows), columns, lines: [top / rows, (bottom + 1) / rows] };
}

/**
 * The MRZ band as fractions of the height: the lowest cluster of rows where stroke edges run unbroken across most
 * of the width (monospaced lines that fill the page from margin to margin), with a margin of half a line; null
 * when no row looks like that.
 */
export function findMrzBand(pixels: RawPixels): { top: number; bottom: number } | null {
  const cluster = lowestTextCluster(pixels, MRZ_MIN_SPAN);
  return cluster && { top: cluster.top, bottom: cluster.bottom };
}

/**
 * An MRZ across this share of the columns at least, for findMrzRegion: a card photographed at ~40 % of the photo's
 * width (round 21) has an MRZ ~35 % wide; a label and its value on a document page span fewer columns.
 */
const REGION_MIN_SPAN = 0.25;
/** A luma step between neighbouring pixels taken for a glyph's stroke inside the MRZ band (paper is even there). */
const MIN_GLYPH_EDGE = 25;

/** A region of an image, as fractions of its width and height. */
export type Region = { left: number; right: number; top: number; bottom: number };

/**
 * Where the MRZ lies on a photo in which the document is small, with space around it (a table, a scanner's bed):
 * the band of findMrzBand found with a narrower run of columns (the coarse columns also take in the document's
 * edge against the table, which the OCR reads as a character), then the text's own extent in it (textExtent), with
 * paper on either side; all as fractions of the width and height. Null when no such band is found, or when the band
 * already spans most of the width (findMrzBand sees it: the document fills the photo).
 */
export function findMrzRegion(pixels: RawPixels): Region | null {
  const cluster = lowestTextCluster(pixels, REGION_MIN_SPAN, true);
  if (!cluster) return null;
  const [start, end] = cluster.columns;
  if (end - start >= MRZ_MIN_SPAN * BANDS_COLUMNS) return null;
  const from = Math.floor((Math.max(0, start - 1) / BANDS_COLUMNS) * pixels.width);
  const to = Math.ceil((Math.min(BANDS_COLUMNS, end + 1) / BANDS_COLUMNS) * pixels.width);
  const [left, right] = textExtent(pixels, from, to, Math.floor(cluster.lines[0] * pixels.height), Math.ceil(cluster.lines[1] * pixels.height));
  return { left: left / pixels.width, right: right / pixels.width, top: cluster.top, bottom: cluster.bottom };
}

/** An MRZ region of findMrzRegions; `lowest`: findMrzRegion's own, the one documentAroundMrz (the default page) is around. */
export type MrzRegion = Region & { lowest: boolean };

/**
 * The MRZ regions of up to two documents photographed small side by side or one above the other (a passport beside
 * an ID card, or beside another person's passport): findMrzRegion, then findMrzRegion again with the first document
 * (documentAround of its region) painted over in flat grey, so that its own printed lines cannot be taken for a
 * second MRZ. Largest first.
 */
export function findMrzRegions(pixels: RawPixels): MrzRegion[] {
  const found = findMrzRegion(pixels);
  if (!found) return [];
  const first = { ...found, lowest: true };
  const paintedOver = (covered: Region) => {
    const painted = new Uint8Array(pixels.data);
    const [x0, x1] = [Math.floor(covered.left * pixels.width), Math.ceil(covered.right * pixels.width)];
    for (let y = Math.floor(covered.top * pixels.height); y < Math.ceil(covered.bottom * pixels.height); y++) {
      painted.fill(128, (y * pixels.width + x0) * 3, (y * pixels.width + x1) * 3);
    }
    return findMrzRegion({ ...pixels, data: painted });
  };
  // Only what is surely the first document is painted (round 23): documentAround's 0.8 of its width reaches ~0.1 of
  // it above a TD3 and ~0.17 above a card, where a document lying above it (stacked) has its MRZ. A region then
  // found wholly inside that 0.8 is the first document's own top print (a title line across half the photo): the
  // 0.8 is painted over instead, as before.
  // Round 23 review: a page photographed turned reaches out of that upright box by up to sin(turn) of its width at
  // its top corners (a 600 px passport at 5° in a 1024 px photo gave its title line as a second MRZ, one more OCR
  // pass): the box is widened by as much, the turn measured (estimateSkew) only when a region was found.
  const page = documentAround(first, pixels);
  const insidePage = (region: Region) => {
    if (region.top >= page.top && region.left >= page.left && region.right <= page.right) return true;
    const turn = Math.abs(Math.sin((estimateSkew(pixels) * Math.PI) / 180)) * (page.right - page.left);
    const [dx, dy] = [turn, (turn * pixels.width) / pixels.height];
    return turn > 0 && region.top >= page.top - dy && region.left >= page.left - dx && region.right <= page.right + dx;
  };
  let other = paintedOver(documentAround(first, pixels, PAINTED_HEIGHT));
  if (other && insidePage(other)) other = paintedOver(page);
  const second = other && { ...other, lowest: false };
  const width = (region: Region) => region.right - region.left;
  return second ? [first, second].sort((a, b) => width(b) - width(a)) : [first];
}

/** The part of the image inside `region`. */
export async function cutOut(pixels: RawPixels, region: Region): Promise<RawPixels> {
  const left = Math.max(0, Math.floor(region.left * pixels.width));
  const top = Math.max(0, Math.floor(region.top * pixels.height));
  const width = Math.max(1, Math.min(pixels.width, Math.ceil(region.right * pixels.width)) - left);
  const height = Math.max(1, Math.min(pixels.height, Math.ceil(region.bottom * pixels.height)) - top);
  return rawPixelsOf(pipelineOf(pixels).extract({ left, top, width, height }));
}

/** The upload as received and its size once oriented (DecodedImage): what a cut at full resolution is taken from. */
export type Upload = Pick<DecodedImage, 'encoded' | 'width' | 'height'>;

/**
 * How an image the analysis looks at was made from the working copy (`working`: its size): the working copy turned
 * clockwise by `turn` degrees about its centre (deskew; sharp's rotate), on a canvas of `width` × `height`.
 */
export type View = { width: number; height: number; turn: number };

/**
 * The part of `seen` inside `region`: cut from the upload at full resolution where it is larger than the working
 * copy (`working`), `seen` being the working copy turned clockwise by `turn` degrees (deskew); from `seen` otherwise.
 * A cut from the upload is, with `paperOnly`, kept to the paper (an MRZ region, onPaper), or with `straighten`
 * turned straight when its text is tilted by MIN_SKEW_DEGREES or more (a page: round 27, dev seed 2957, pages in a
 * 4032 px photo turned up to ±2°: fields read as matching 95 → 97 %, tampered twins flagged 11 → 12 of 12).
 */
export async function cutOutFinest(
  seen: RawPixels,
  region: Region,
  upload: Upload | null,
  working: RawPixels,
  { turn = 0, paperOnly = false, straighten = false }: { turn?: number; paperOnly?: boolean; straighten?: boolean } = {},
): Promise<RawPixels> {
  const cut = upload && (await cutOutOfUpload(upload, working, { width: seen.width, height: seen.height, turn }, region));
  if (!cut) return cutOut(seen, region);
  if (paperOnly) return onPaper(cut);
  const skew = straighten ? estimateSkew(cut) : 0;
  return Math.abs(skew) >= MIN_SKEW_DEGREES ? deskew(cut, skew) : cut;
}

/**
 * The longest side of a cut from the upload, in pixels: the OCR reads every cut scaled to OCR_WIDTH (1250 px) wide,
 * and twice that keeps the straightening's and onPaper's detail (round 27 review: a page at 40 % of a 50 MP photo
 * was cut at ~3300×2600 px, ~26 MB raw before its straightened copies).
 */
const MAX_CUT_SIDE = 2500;

/** A column or row darker on average than this share of the paper's brightness is off the paper (a table, its edge). */
const OFF_PAPER = 0.55;

/**
 * An MRZ region cut at full resolution without the strips of table along its sides: the region's extent is found on
 * the working copy, where a card's margin of ~25 px next to its edge leaves the edge, and half-way to the table's
 * grain beyond it, in the region; at full resolution the OCR reads that strip as a character (`B4908090M…`, dev seed
 * 2957). Columns and rows are dropped from each side while their mean brightness is under OFF_PAPER of the paper's
 * (the 90th percentile of its pixels); text crosses paper at a fifth to a third of its pixels, far above it.
 */
async function onPaper(pixels: RawPixels): Promise<RawPixels> {
  const { data, width, height } = pixels;
  const columns = new Float64Array(width);
  const rows = new Float64Array(height);
  const histogram = new Uint32Array(256);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const luma = (data[i]! * 299 + data[i + 1]! * 587 + data[i + 2]! * 114) / 1000;
      columns[x]! += luma / height;
      rows[y]! += luma / width;
      histogram[Math.round(luma)]!++;
    }
  }
  let paper = 255;
  for (let seen = 0; seen < 0.1 * width * height; paper--) seen += histogram[paper]!;
  const dark = (mean: number) => mean < OFF_PAPER * paper;
  const firstOn = (means: Float64Array) => Math.max(0, means.findIndex((mean) => !dark(mean)));
  const lastOn = (means: Float64Array) => means.length - 1 - Math.max(0, [...means].reverse().findIndex((mean) => !dark(mean)));
  const [left, right, top, bottom] = [firstOn(columns), lastOn(columns), firstOn(rows), lastOn(rows)];
  if (left === 0 && right === width - 1 && top === 0 && bottom === height - 1) return pixels;
  if (right - left < width / 2 || bottom - top < height / 2) return pixels;
  return cutOut(pixels, { left: left / width, right: (right + 1) / width, top: top / height, bottom: (bottom + 1) / height });
}

/**
 * The part of `view` inside `region`, cut from the upload at full resolution (round 27): a document at a third of a
 * 4032 px photo holds ~560 px of the 1600 px working copy, its MRZ characters ~7 px, at full resolution ~1400 px.
 * The region's centre is mapped back through the view's turn and scale; the box around the region turned back is
 * cut out (paper-white beyond the photo's edge, so its centre stays the region's), turned as the view is, and the
 * region's own size kept around its centre. Null when the upload is not larger than the working copy, or has no
 * bytes: nothing is gained. The box is at most MAX_CUT_SIDE on a side (the upload decoded smaller where it would be
 * larger), so that a cut of a 50 MP upload stays bounded in the worker's memory.
 */
async function cutOutOfUpload(upload: Upload, working: { width: number; height: number }, view: View, region: Region): Promise<RawPixels | null> {
  const radians = (view.turn * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  // The region's centre and half sizes, in the view's pixels, from its centre.
  const [cx, cy] = [((region.left + region.right) / 2 - 0.5) * view.width, ((region.top + region.bottom) / 2 - 0.5) * view.height];
  const [hw, hh] = [((region.right - region.left) / 2) * view.width, ((region.bottom - region.top) / 2) * view.height];
  // The box around the region turned back, in the working copy's pixels.
  const [boxHalfWidth, boxHalfHeight] = [hw * Math.abs(cos) + hh * Math.abs(sin), hw * Math.abs(sin) + hh * Math.abs(cos)];
  const fullScale = upload.width / working.width;
  const scale = Math.min(fullScale, MAX_CUT_SIDE / (2 * Math.max(boxHalfWidth, boxHalfHeight)));
  if (!upload.encoded || scale <= 1.05) return null;
  // Turned back by -turn into the working copy, then scaled to the upload.
  const x = (working.width / 2 + cx * cos + cy * sin) * fullScale;
  const y = (working.height / 2 - cx * sin + cy * cos) * fullScale;
  const [x0, y0] = [Math.round(x - boxHalfWidth * fullScale), Math.round(y - boxHalfHeight * fullScale)];
  const [x1, y1] = [Math.round(x + boxHalfWidth * fullScale), Math.round(y + boxHalfHeight * fullScale)];
  const [left, top] = [Math.max(0, x0), Math.max(0, y0)];
  const [right, bottom] = [Math.min(upload.width, x1), Math.min(upload.height, y1)];
  if (right - left < 2 || bottom - top < 2) return null;
  // Only the box is decoded (cut from the image as stored, then turned by its EXIF orientation) and scaled down to
  // `scale` where the box would exceed MAX_CUT_SIDE (sharp takes the size as turned): turning the whole of a 50 MP
  // upload first held it all (+190 MB).
  const shrink = scale / fullScale;
  const scaled = (length: number) => Math.round(length * shrink);
  const { orientation = 1 } = await sharp(upload.encoded).metadata();
  const stored = storedBox({ left, top, width: right - left, height: bottom - top }, orientation, upload);
  const cut = sharp(upload.encoded, { limitInputPixels: upload.width * upload.height, failOn: UPLOAD_FAIL_ON }).extract(stored);
  const inPhoto = await rawPixelsOf(
    (shrink < 1 ? cut.resize(Math.max(1, scaled(right - left)), Math.max(1, scaled(bottom - top)), { fit: 'fill' }) : cut)
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha(),
  );
  // Paper-white beyond the photo's edge, added to the cut once turned, in a step of its own: the margins are the turned
  // cut's sides, whichever order one sharp pipeline would take them in.
  const margins = { left: scaled(left - x0), top: scaled(top - y0), right: scaled(x1 - right), bottom: scaled(y1 - bottom) };
  const box = Object.values(margins).some((margin) => margin > 0) ? await extendWhite(inPhoto, margins) : inPhoto;
  if (Math.abs(view.turn) < 0.01) return box;
  const turned = await deskew(box, -view.turn);
  const [keepWidth, keepHeight] = [(2 * hw * scale) / turned.width, (2 * hh * scale) / turned.height];
  return cutOut(turned, { left: 0.5 - keepWidth / 2, right: 0.5 + keepWidth / 2, top: 0.5 - keepHeight / 2, bottom: 0.5 + keepHeight / 2 });
}

async function extendWhite(pixels: RawPixels, margins: { left: number; top: number; right: number; bottom: number }): Promise<RawPixels> {
  return rawPixelsOf(pipelineOf(pixels).extend({ ...margins, background: '#ffffff' }));
}

type PixelBox = { left: number; top: number; width: number; height: number };

/**
 * `box` of an upload as seen (its EXIF `orientation` applied, `oriented` its size then) in the pixels of the image as
 * stored: orientation 6 is stored turned a quarter anticlockwise (shown turned clockwise), 8 the other way, 2, 4, 5
 * and 7 mirrored (EXIF 2.3, 4.6.4 A).
 */
function storedBox(box: PixelBox, orientation: number, oriented: { width: number; height: number }): PixelBox {
  const { left, top, width, height } = box;
  // The stored image's size: turned a quarter (5-8), its sides are the oriented image's the other way round.
  const [storedWidth, storedHeight] = orientation >= 5 ? [oriented.height, oriented.width] : [oriented.width, oriented.height];
  const quarter = { width: height, height: width };
  switch (orientation) {
    case 2: return { left: storedWidth - left - width, top, width, height };
    case 3: return { left: storedWidth - left - width, top: storedHeight - top - height, width, height };
    case 4: return { left, top: storedHeight - top - height, width, height };
    case 5: return { left: top, top: left, ...quarter };
    case 6: return { left: top, top: storedHeight - left - width, ...quarter };
    case 7: return { left: storedWidth - top - height, top: storedHeight - left - width, ...quarter };
    case 8: return { left: storedWidth - top - height, top: left, ...quarter };
    default: return box;
  }
}

/**
 * The document around the MRZ region of findMrzRegion (a document small in the photo), as fractions of the photo:
 * an MRZ spans ~88 % of its document's width and the document is at most ~0.7 of its width high (TD3 page, TD1/TD2
 * card, visas), so the document lies within a width of region / 0.85 and a height of 0.8 of that above the MRZ's
 * bottom. Null when findMrzRegion finds none (the document fills the photo).
 */
export function documentAroundMrz(pixels: RawPixels): Region | null {
  const region = findMrzRegion(pixels);
  return region && documentAround(region, pixels);
}

/**
 * The height of a document surely its own above an MRZ's bottom, as a share of the document's width: every ICAO
 * document is at least ~0.63 of its width high (TD1), and its MRZ ends a little above its edge.
 */
const PAINTED_HEIGHT = 0.6;

/** `heightShare`: how high above the MRZ's bottom, as a share of the document's width (0.8: any document's page and a margin). */
export function documentAround(region: Region, pixels: RawPixels, heightShare = 0.8): Region {
  const documentWidth = (region.right - region.left) / 0.85;
  const margin = 0.1 * documentWidth;
  const height = (heightShare * documentWidth * pixels.width) / pixels.height;
  return {
    left: Math.max(0, region.left - margin),
    right: Math.min(1, region.right + margin),
    top: Math.max(0, region.bottom - height),
    bottom: region.bottom,
  };
}

/**
 * The MRZ's extent in x within [from, to) over the rows of its lines [top, bottom), pixels: every MRZ position holds
 * a glyph (the filler too), so the gaps between the columns where stroke edges are seen stay under a character; a
 * gap of more than a sixth of the lines' height (two or three lines are ~4–6 pitches high) ends the text. A column
 * counts where edges are seen on two rows or more: a glyph's strokes run over several rows, a wave of background
 * print crossing the band over one or two. The longest such run, widened by a sixth of the lines' height (about a
 * pitch of paper), or half-way to the next edges outside it (the document's edge against the table). Edges are
 * taken from MIN_GLYPH_EDGE: a small filler's thin strokes, blurred by the camera, are fainter than MIN_EDGE, and a
 * line ending in fillers then a check digit would lose that digit.
 */
function textExtent(pixels: RawPixels, from: number, to: number, top: number, bottom: number): [number, number] {
  const luma = (x: number, y: number) => {
    const i = (y * pixels.width + x) * 3;
    return (pixels.data[i]! * 299 + pixels.data[i + 1]! * 587 + pixels.data[i + 2]! * 114) / 1000;
  };
  const edges = new Uint16Array(to - from);
  for (let y = top; y < Math.min(bottom, pixels.height); y++) {
    for (let x = from; x + 1 < to; x++) if (Math.abs(luma(x, y) - luma(x + 1, y)) >= MIN_GLYPH_EDGE) edges[x - from]!++;
  }
  const edged = edges.map((count) => (count >= 2 ? 1 : 0));
  const maxGap = Math.max(2, Math.round((bottom - top) / 6));
  let best: [number, number] = [0, to - from];
  let bestCount = -1;
  let runStart = -1;
  let last = -1;
  let count = 0;
  for (let x = 0; x <= edged.length; x++) {
    if (x < edged.length && !edged[x]) continue;
    if (runStart >= 0 && (x === edged.length || x - last > maxGap)) {
      if (count > bestCount) (best = [runStart, last + 1]), (bestCount = count);
      runStart = -1;
    }
    if (x === edged.length) break;
    if (runStart < 0) (runStart = x), (count = 0);
    last = x;
    count++;
  }
  // Half-way at most to the next edges outside the run (the document's edge, a table's grain).
  const pad = Math.round((bottom - top) / 6);
  // (lastIndexOf from -1 would search from the end: a run starting at the first column has nothing before it.)
  const before = best[0] > 0 ? edged.lastIndexOf(1, best[0] - 1) : -1;
  const after = edged.indexOf(1, best[1]);
  const padLeft = before < 0 ? pad : Math.min(pad, Math.floor((best[0] - before) / 2));
  const padRight = after < 0 ? pad : Math.min(pad, Math.floor((after - best[1]) / 2));
  return [Math.max(0, from + best[0] - padLeft), Math.min(pixels.width, from + best[1] + padRight)];
}

type Turn = 0 | 90 | 180 | 270;
type Band = { top: number; bottom: number };

/** Where mrzTurn found the band: the image it looked at (as it is, or turned a quarter) and the band there. */
async function locateMrz(pixels: RawPixels): Promise<{ turn: Turn | null; seen: RawPixels; band: Band | null }> {
  const lowHalf = (band: Band) => band.top + band.bottom > 1;
  const upright = findMrzBand(pixels);
  if (upright) return { turn: lowHalf(upright) ? 0 : 180, seen: pixels, band: upright };
  const quarter = await deskew(pixels, -90);
  const turned = findMrzBand(quarter);
  if (turned) return { turn: lowHalf(turned) ? 90 : 270, seen: quarter, band: turned };
  return { turn: null, seen: pixels, band: null };
}

/**
 * The clockwise turn that brings the MRZ band to the bottom, upright: its lines run across the page as it is (0 or
 * 180 by where the band sits) or across the page turned a quarter (90 or 270); null when neither shows a band.
 */
export async function mrzTurn(pixels: RawPixels): Promise<Turn | null> {
  return (await locateMrz(pixels)).turn;
}

/**
 * The page turned upright by mrzTurn (as it is when no band is seen) and the MRZ band on it (null when none). The
 * image and band mrzTurn looked at are reused where they are already upright (turns 0 and 90).
 */
export async function uprightMrzPage(pixels: RawPixels): Promise<{ upright: RawPixels; band: Band | null }> {
  const { turn, seen, band } = await locateMrz(pixels);
  if (!turn || turn === 90) return { upright: seen, band };
  const upright = await deskew(pixels, -turn);
  return { upright, band: findMrzBand(upright) };
}
