// The one PDF renderer: lays out a ReportContent under the common frame (header, sandbox banner, footer
// with "Page n of m"). Output is deterministic: the document dates come from the record's own timestamp and
// pdfkit derives the document ID from the document info, so the same record always gives the same bytes.
import PDFDocument from 'pdfkit';
import { directionRuns } from './bidi.ts';
import { formatCell, formatUtc, type Block, type CellValue, type ReportContent } from './content.ts';
import { fontsForNewDocument } from './fonts.ts';
import { SERVICE_VERSION } from './version.ts';

export type ReportEnvironment = 'sandbox' | 'live';

/** What the common header and footer print on every page. */
export interface ReportFrame {
  code: string;
  title: string;
  /** The account id of the tenant that owns the record. */
  tenant: string;
  recordId: string;
  environment: ReportEnvironment;
  /** ISO 8601; the record's own timestamp. It fixes the document dates, so never pass the current time. */
  recordedAt: string;
}

type Doc = PDFKit.PDFDocument;

const MARGIN = { top: 112, bottom: 56, left: 50, right: 50 };
const BODY_SIZE = 9.5;
/** Cells shrink their text down to this size so a hash or an id is not broken in the middle. */
const MIN_CELL_SIZE = 6;
/** No glyph of DejaVu Sans (Bold) is wider than this many ems: the widest, U+1671 in Bold, is 2.016 em. */
const WIDEST_GLYPH_EM = 2.02;
const CELL_PADDING = 3;
const NOTHING_RECORDED = 'Nothing recorded.';
const COLOURS = { text: '#111111', muted: '#555555', rule: '#BBBBBB', headerFill: '#EEEEEE', sandbox: '#B00020' };

function parseRecordedAt(recordedAt: string): Date {
  const date = new Date(recordedAt);
  if (Number.isNaN(date.getTime())) throw new Error(`report frame: recordedAt is not a timestamp: ${recordedAt}`);
  return date;
}

export async function renderPdf(frame: ReportFrame, content: ReportContent): Promise<Buffer> {
  const recordedAt = parseRecordedAt(frame.recordedAt);
  const fonts = fontsForNewDocument();
  const doc = new PDFDocument({
    // Starting on the embedded font keeps pdfkit from loading (and referencing) its default Helvetica.
    font: fonts.regular as unknown as string,
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    compress: true,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: `${frame.code} ${frame.title} ${frame.recordId}`,
      Author: frame.tenant,
      Subject: `${frame.title} (${frame.environment})`,
      Creator: SERVICE_VERSION,
      Producer: `${SERVICE_VERSION} (PDFKit)`,
      CreationDate: recordedAt,
      ModDate: recordedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLOURS.text);

  for (const section of content.sections) {
    drawHeading(doc, section.title);
    if (section.blocks.length === 0) drawParagraph(doc, NOTHING_RECORDED, COLOURS.muted);
    for (const block of section.blocks) drawBlock(doc, block);
  }
  decoratePages(doc, frame, recordedAt);
  doc.end();
  return finished;
}

function contentWidth(doc: Doc): number {
  return doc.page.width - MARGIN.left - MARGIN.right;
}

function pageBottom(doc: Doc): number {
  return doc.page.height - MARGIN.bottom;
}

function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom(doc)) doc.addPage();
}

/** Writes text that may contain right-to-left words, one direction run at a time (see bidi.ts). */
function writeText(doc: Doc, text: string, x: number, y: number, width: number): void {
  const runs = directionRuns(text);
  if (runs.length === 0) return;
  runs.forEach((run, index) => {
    // With `features` set, pdfkit shapes the whole line as one run instead of word by word, so fontkit puts
    // the words of a right-to-left run in right-to-left order too (word by word, only letters are reversed).
    const options = { width, continued: index < runs.length - 1, ...(run.rtl ? { features: [] } : {}) };
    if (index === 0) doc.text(run.text, x, y, options);
    else doc.text(run.text, options);
  });
}

function drawHeading(doc: Doc, title: string): void {
  // Keep a heading on the same page as at least a few lines of its section.
  ensureSpace(doc, 60);
  doc.moveDown(0.6);
  doc.font('bold').fontSize(12).fillColor(COLOURS.text);
  writeText(doc, title, MARGIN.left, doc.y, contentWidth(doc));
  doc.moveDown(0.3);
  doc.font('regular').fontSize(BODY_SIZE);
}

function drawBlock(doc: Doc, block: Block): void {
  switch (block.kind) {
    case 'paragraph':
      return drawParagraph(doc, block.text, COLOURS.text);
    case 'keyValue':
      if (block.rows.length === 0) return drawParagraph(doc, NOTHING_RECORDED, COLOURS.muted);
      return drawRows(doc, [{ weight: 1 }, { weight: 2 }], block.rows, { header: null, boldFirstColumn: true });
    case 'table':
      if (block.rows.length === 0) return drawParagraph(doc, block.emptyText, COLOURS.muted);
      return drawRows(doc, block.columns, block.rows, {
        header: block.columns.map((column) => column.header),
        boldFirstColumn: false,
      });
    case 'list':
      if (block.items.length === 0) return drawParagraph(doc, block.emptyText, COLOURS.muted);
      return drawList(doc, block.items);
  }
}

function drawParagraph(doc: Doc, text: string, colour: string): void {
  ensureSpace(doc, doc.currentLineHeight(true));
  doc.font('regular').fontSize(BODY_SIZE).fillColor(colour);
  writeText(doc, text, MARGIN.left, doc.y, contentWidth(doc));
  doc.fillColor(COLOURS.text).moveDown(0.5);
}

function drawList(doc: Doc, items: readonly string[]): void {
  const indent = 12;
  doc.font('regular').fontSize(BODY_SIZE).fillColor(COLOURS.text);
  for (const item of items) {
    ensureSpace(doc, doc.currentLineHeight(true));
    const y = doc.y;
    doc.text('•', MARGIN.left, y, { lineBreak: false });
    writeText(doc, item, MARGIN.left + indent, y, contentWidth(doc) - indent);
  }
  doc.moveDown(0.5);
}

interface RowStyle {
  /** Column headers repeated at the top of every page the table spans; null for key/value tables. */
  header: readonly string[] | null;
  boldFirstColumn: boolean;
}

function drawRows(
  doc: Doc,
  columns: ReadonlyArray<{ weight?: number }>,
  rows: ReadonlyArray<ReadonlyArray<CellValue>>,
  style: RowStyle,
): void {
  const totalWeight = columns.reduce((sum, column) => sum + (column.weight ?? 1), 0);
  const widths = columns.map((column) => (contentWidth(doc) * (column.weight ?? 1)) / totalWeight);
  const usableHeight = pageBottom(doc) - MARGIN.top;
  const fontFor = (columnIndex: number, isHeader: boolean) =>
    isHeader || (style.boldFirstColumn && columnIndex === 0) ? 'bold' : 'regular';

  const cellSizes = (cells: readonly string[], isHeader: boolean) =>
    cells.map((cell, index) => {
      doc.font(fontFor(index, isHeader));
      return fittedSize(doc, cell, widths[index] - 2 * CELL_PADDING);
    });
  const measure = (cells: readonly string[], sizes: readonly number[], isHeader: boolean) =>
    Math.max(
      ...cells.map((cell, index) => {
        doc.font(fontFor(index, isHeader)).fontSize(sizes[index]);
        return doc.heightOfString(cell, { width: widths[index] - 2 * CELL_PADDING });
      }),
    ) +
    2 * CELL_PADDING;

  const drawRow = (cells: readonly string[], sizes: readonly number[], isHeader: boolean, height: number) => {
    const top = doc.y;
    if (isHeader) doc.rect(MARGIN.left, top, contentWidth(doc), height).fill(COLOURS.headerFill);
    let x = MARGIN.left;
    cells.forEach((cell, index) => {
      doc.font(fontFor(index, isHeader)).fontSize(sizes[index]).fillColor(COLOURS.text);
      writeText(doc, cell, x + CELL_PADDING, top + CELL_PADDING, widths[index] - 2 * CELL_PADDING);
      x += widths[index];
    });
    doc
      .moveTo(MARGIN.left, top + height)
      .lineTo(MARGIN.left + contentWidth(doc), top + height)
      .lineWidth(0.5)
      .strokeColor(COLOURS.rule)
      .stroke();
    doc.x = MARGIN.left;
    doc.y = top + height;
  };

  const headerCells = style.header;
  const headerSizes = headerCells ? cellSizes(headerCells, true) : [];
  const headerHeight = headerCells ? measure(headerCells, headerSizes, true) : 0;
  const drawHeader = () => {
    if (headerCells) drawRow(headerCells, headerSizes, true, headerHeight);
  };

  ensureSpace(doc, headerHeight + 2 * doc.currentLineHeight(true));
  drawHeader();
  for (const row of rows) {
    const cells = columns.map((_, index) => formatCell(row[index]));
    const sizes = cellSizes(cells, false);
    const height = measure(cells, sizes, false);
    if (height > usableHeight - headerHeight) {
      // A row taller than a page cannot be drawn as a row; let its cells flow as labelled paragraphs.
      flowRow(doc, cells, headerCells ?? []);
      continue;
    }
    if (doc.y + height > pageBottom(doc)) {
      doc.addPage();
      drawHeader();
    }
    drawRow(cells, sizes, false, height);
  }
  doc.font('regular').fontSize(BODY_SIZE).moveDown(0.5);
}

/** The body size, or smaller when the cell's longest unbreakable token would not fit on one line. */
function fittedSize(doc: Doc, text: string, width: number): number {
  doc.fontSize(BODY_SIZE);
  // Measuring shapes the text, the dearest step of a render: only tokens that could be too wide are measured.
  const tokens = new Set(text.split(/\s+/).filter((token) => token.length * BODY_SIZE * WIDEST_GLYPH_EM > width));
  const longest = Math.max(0, ...[...tokens].map((token) => doc.widthOfString(token)));
  // A little slack: pdfkit wraps on measured widths, and rounding must not push the token over the edge.
  return longest <= width ? BODY_SIZE : Math.max(MIN_CELL_SIZE, (BODY_SIZE * width * 0.98) / longest);
}

function flowRow(doc: Doc, cells: readonly string[], labels: readonly string[]): void {
  cells.forEach((cell, index) => {
    const label = labels[index];
    drawParagraph(doc, label ? `${label}: ${cell}` : cell, COLOURS.text);
  });
}

/** Header, sandbox banner and footer, drawn on every page once the page count is known. */
function decoratePages(doc: Doc, frame: ReportFrame, recordedAt: Date): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index);
    const bodyMargins = doc.page.margins;
    // Header and footer sit outside the body margins; without this pdfkit would start a new page.
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    drawPageHeader(doc, frame, recordedAt);
    drawPageFooter(doc, frame, index - start + 1, count);
    doc.page.margins = bodyMargins;
  }
}

function drawPageHeader(doc: Doc, frame: ReportFrame, recordedAt: Date): void {
  const width = doc.page.width;
  let y = 22;
  if (frame.environment === 'sandbox') {
    doc.rect(0, 0, width, 26).fill(COLOURS.sandbox);
    const banner = 'SANDBOX — test data, not a real verification';
    doc.font('bold').fontSize(10).fillColor('#FFFFFF');
    doc.text(banner, (width - doc.widthOfString(banner)) / 2, 8, { lineBreak: false });
    y = 36;
  }
  doc.font('bold').fontSize(14).fillColor(COLOURS.text);
  doc.text(`${frame.code} · ${frame.title}`, MARGIN.left, y, { lineBreak: false });
  doc.font('regular').fontSize(8).fillColor(COLOURS.muted);
  const lines = [
    `Tenant: ${frame.tenant}    Record: ${frame.recordId}    Environment: ${frame.environment}`,
    `Record time: ${formatUtc(recordedAt)}    Service: ${SERVICE_VERSION}`,
  ];
  lines.forEach((line, index) => doc.text(line, MARGIN.left, y + 22 + index * 11, { lineBreak: false }));
  const ruleY = y + 22 + lines.length * 11 + 6;
  doc
    .moveTo(MARGIN.left, ruleY)
    .lineTo(width - MARGIN.right, ruleY)
    .lineWidth(0.75)
    .strokeColor(COLOURS.rule)
    .stroke();
  doc.fillColor(COLOURS.text);
}

function drawPageFooter(doc: Doc, frame: ReportFrame, pageNumber: number, pageCount: number): void {
  const y = doc.page.height - 34;
  doc.font('regular').fontSize(8).fillColor(COLOURS.muted);
  doc.text(`${frame.code} · ${frame.recordId} · ${SERVICE_VERSION}`, MARGIN.left, y, { lineBreak: false });
  const pageLabel = `Page ${pageNumber} of ${pageCount}`;
  doc.text(pageLabel, doc.page.width - MARGIN.right - doc.widthOfString(pageLabel), y, { lineBreak: false });
  doc.fillColor(COLOURS.text);
}
