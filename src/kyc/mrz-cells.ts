// MRZ lines rebuilt from the OCR's character boxes. The MRZ font is monospaced: every line has the layout's number of
// character cells at one pitch. The OCR's line text loses that: it splits one glyph into two (J read as "JI", 9 as
// "9O"), merges a run of fillers into one wide `<`, or drops a glyph, and the line comes out with characters added in
// one place and lost in another, which no length repair can put back. Placed by their boxes, the characters fall
// into their cells again: a cell the OCR read twice offers both readings, and the check digits choose between them.
// Pure: analyse.ts calls it on an invalid reading with the boxes readMrzBand returned.
import { checkedPlace, readMrz, type MrzReading } from './mrz.ts';
import type { BandText, OcrSymbol } from './ocr.ts';

/** MRZ line lengths: TD3 and MRV-A, TD2, MRV-B and the French card, TD1. */
const LINE_LENGTHS = [44, 36, 30];
/** A line is taken for an MRZ line when it has at least this share of the layout's characters and a filler run. */
const MIN_SYMBOL_SHARE = 0.6;
/**
 * Cells in checked fields read two ways that are tried both ways (2^n readings): more and a check digit would be
 * satisfied by chance (the composite weighs the document number exactly as its own check digit does, so it adds
 * nothing there). Visas have one check digit per field and no composite: none (on the development seed, trying one
 * cell there turned correct readings into wrong ones that held by chance).
 */
const MAX_AMBIGUOUS_CELLS = 2;
const MAX_UNCONFIRMED_AMBIGUOUS_CELLS = 0;

/** A cell: its most confident reading, and the other readings the OCR placed in it. */
interface Cell {
  best: string;
  others: string[];
}

type BoxedLine = BandText['lines'][number] & { symbols: OcrSymbol[] };

const spanOf = (line: BoxedLine) => ({ x0: Math.min(...line.symbols.map((s) => s.box.x0)), x1: Math.max(...line.symbols.map((s) => s.box.x1)) });

/**
 * The lines with about the layout's number of character boxes, the cell pitch (that of the widest line with a filler
 * run, from its first character to its last) and where each line's first cell starts; null when no line has a filler
 * run. The widest line kept both its end glyphs; a line that starts half a cell right of the others lost its first one.
 */
function cellGeometry(lines: BandText['lines'], length: number): { mrzLines: BoxedLine[]; pitch: number; starts: number[] } | null {
  const mrzLines = lines.filter(
    (line): line is BoxedLine => (line.symbols?.length ?? 0) >= MIN_SYMBOL_SHARE * length && line.symbols!.length <= length / MIN_SYMBOL_SHARE,
  );
  const filled = mrzLines.filter((line) => line.text.includes('<<'));
  if (filled.length === 0) return null;
  const pitch = Math.max(...filled.map((line) => spanOf(line).x1 - spanOf(line).x0)) / length;
  const left = Math.min(...filled.map((line) => spanOf(line).x0));
  const starts = mrzLines.map((line) => (spanOf(line).x0 - left > pitch / 2 ? left : spanOf(line).x0));
  return { mrzLines, pitch, starts };
}

/**
 * The lines that look like MRZ lines (about the layout's number of characters), each as `length` cells; null when
 * fewer than two do or none has a filler run. The pitch is that of the widest line with a filler run (a name line's
 * fillers run to its end; a data line may be all data).
 */
export function cellLines(lines: BandText['lines'], length: number): Cell[][] | null {
  const geometry = cellGeometry(lines, length);
  if (!geometry || geometry.mrzLines.length < 2) return null;
  const { mrzLines, pitch, starts } = geometry;
  return mrzLines.map((line, k) => {
    const x0 = starts[k]!;
    const cells: OcrSymbol[][] = Array.from({ length }, () => []);
    for (const symbol of line.symbols) {
      const from = Math.round((symbol.box.x0 - x0) / pitch);
      const to = Math.round((symbol.box.x1 - x0) / pitch) - 1;
      // A box wider than a cell is a run of fillers read as one; any other character takes the cell of its centre.
      const places =
        symbol.text === '<' && to > from
          ? Array.from({ length: to - from + 1 }, (_, i) => from + i)
          : [Math.floor(((symbol.box.x0 + symbol.box.x1) / 2 - x0) / pitch)];
      for (const place of places) if (place >= 0 && place < length) cells[place]!.push(symbol);
    }
    return cells.map((symbols) => {
      const texts = [...new Set([...symbols].sort((a, b) => b.confidence - a.confidence).map((s) => s.text))];
      // An empty cell is a glyph the OCR dropped: a filler, which fails whatever check digit covers it.
      return { best: texts[0] ?? '<', others: texts.slice(1) };
    });
  });
}

/**
 * Where character `index` of MRZ line `lineIndex` (of `lines`, the reading's) lies, from the pass's character boxes
 * rather than its line boxes: the cell of that index at cellLines' pitch (the widest line with a filler run, from its
 * first to its last character) on the OCR line sharing most characters with it, `margin` of a cell added on each side.
 * A line box stretches over specks of scanner noise beside the line, and a line that lost a glyph gives a pitch a
 * cell off over 44 cells; the characters' own boxes do neither. null when the pass has no such lines.
 */
export function cellBox(read: BandText, lines: string[], lineIndex: number, index: number, margin: number): OcrSymbol['box'] | null {
  const length = lines[0]!.length;
  const geometry = cellGeometry(read.lines, length);
  if (!geometry) return null;
  const { mrzLines, pitch, starts } = geometry;
  const target = lines[lineIndex]!;
  const shared = (line: BoxedLine) => line.symbols.filter((s, i) => s.text === target[i]).length;
  const k = mrzLines.reduce((a, line, b) => (shared(line) > shared(mrzLines[a]!) ? b : a), 0);
  const source = mrzLines[k];
  if (!source || shared(source) < length / 2) return null;
  const x0 = starts[k]!;
  const y0 = Math.min(...source.symbols.map((s) => s.box.y0));
  const y1 = Math.max(...source.symbols.map((s) => s.box.y1));
  return {
    x0: x0 + (index - margin) * pitch,
    x1: x0 + (index + 1 + margin) * pitch,
    y0: y0 - margin * (y1 - y0),
    y1: y1 + margin * (y1 - y0),
  };
}

/** What a reading says where check digits cover it. */
const checkedData = (r: MrzReading) => [r.format, r.documentNumber, r.birthDate, r.expiryDate, r.personalNumber].join('|');

/**
 * The MRZ read from the OCR's character boxes (cellLines): the most confident reading of every cell, and where a
 * cell in a checked field holds two readings, each of them. The fields whose cells were read two ways are listed in
 * `checkDigitRepairs` (review): the check digit chose the glyph. When readings with other data also hold, the cells
 * cannot tell which is printed and the reading is invalid. Meant for a line text that read invalid (`plain`): the
 * checked fields whose characters differ from it are listed in `checkDigitRepairs` as well. null when the boxes give
 * no MRZ.
 */
export function readMrzByCells(read: BandText, now: Date, plain: MrzReading | null = null): MrzReading | null {
  let best: MrzReading | null = null;
  for (const length of LINE_LENGTHS) {
    const lines = cellLines(read.lines, length);
    if (!lines) continue;
    const text = (picks: Map<string, string>) => lines.map((cells, k) => cells.map((c, i) => picks.get(`${k}:${i}`) ?? c.best).join('')).join('\n');
    const primary = readMrz(text(new Map()), now);
    if (!primary || primary.lines[0]!.length !== length) continue;
    // Which cell line each MRZ line came from: the one sharing most characters at the same places.
    const source = primary.lines.map((line) => {
      const shared = (cells: Cell[]) => cells.filter((c, i) => c.best === line[i]).length;
      return lines.reduce((a, b, k) => (shared(b) > shared(lines[a]!) ? k : a), 0);
    });
    const ambiguous = primary.lines.flatMap((_, m) =>
      lines[source[m]!]!.flatMap((cell, i) => {
        const place = checkedPlace(primary.format, m, i);
        return place && cell.others.length > 0 ? [{ key: `${source[m]}:${i}`, place, options: [cell.best, ...cell.others] }] : [];
      }),
    );
    const confirmed = primary.format === 'MRVA' || primary.format === 'MRVB' ? MAX_UNCONFIRMED_AMBIGUOUS_CELLS : MAX_AMBIGUOUS_CELLS;
    let readings = [primary];
    if (ambiguous.length > 0 && ambiguous.length <= confirmed) {
      let picks: Map<string, string>[] = [new Map()];
      for (const { key, options } of ambiguous) picks = picks.flatMap((p) => options.map((o) => new Map([...p, [key, o]])));
      readings = picks.map((p) => readMrz(text(p), now)).filter((r): r is MrzReading => r !== null && r.format === primary.format);
    }
    // A choice that holds as read beats one that needed look-alike swaps on top (readMrz's own repairs), as
    // readMrz prefers the placement changing fewest characters: only the readings of the fewest repairs compete.
    const holding = readings.filter((r) => r.valid);
    const fewest = Math.min(...holding.map((r) => r.checkDigitRepairs.length));
    const valid = holding.filter((r) => r.checkDigitRepairs.length === fewest);
    const places = [...new Set(ambiguous.map((a) => a.place))];
    let reading: MrzReading;
    if (valid.length > 0 && new Set(valid.map(checkedData)).size === 1) {
      reading = { ...valid[0]!, checkDigitRepairs: [...new Set([...valid[0]!.checkDigitRepairs, ...places])] };
    } else if (valid.length > 0) {
      reading = { ...valid[0]!, valid: false, invalidFields: places.map((p) => (p.endsWith('CheckDigit') ? p : `${p}CheckDigit`)) };
    } else {
      reading = primary;
    }
    // The line text read invalid and the cells valid: the check digits chose the cells' characters. Every checked
    // field they changed is a check-digit repair (review), never a plain pass.
    const changed = reading.lines.flatMap((line, m) =>
      [...line].flatMap((c, i) => {
        const place = plain?.format === reading.format && plain.lines[m]?.[i] === c ? null : checkedPlace(reading.format, m, i);
        return place ? [place] : [];
      }),
    );
    if (reading.valid) reading = { ...reading, checkDigitRepairs: [...new Set([...reading.checkDigitRepairs, ...changed])] };
    const faults = (r: MrzReading) => r.invalidFields.length;
    if (!best || (reading.valid && !best.valid) || faults(reading) < faults(best)) best = reading;
    if (best.valid) break;
  }
  return best;
}

/**
 * Look-alikes whose values differ by a multiple of 10 (G 16 and 6, F 15 and 5, S 28 and 8): every check digit (weights
 * 7, 3, 1, modulo 10) weighs them the same, so none can tell which was printed.
 */
export const CHECK_BLIND_PARTNER: Readonly<Record<string, string>> = { G: '6', '6': 'G', F: '5', '5': 'F', S: '8', '8': 'S' };
/**
 * Under this confidence such a character of the document number is not believed. Development seed 3187 (`--mrz-only
 * --per-cell 3`, 158 numbers read valid and found in a pass's characters): genuine G, F, 5 and S were read at 93–99, 6
 * at 89–99 (three under 93), 8 at 71–99 (four under 93); a 6 read as G at 88 held every check digit with the wrong
 * number (round 7; S and 8 added in round 8).
 */
export const MIN_CHECK_BLIND_CONFIDENCE = 93;

/** A check-blind character of the document number as the pass read it: its place in the number and its box. */
export interface CheckBlindCell {
  index: number;
  character: string;
  box: OcrSymbol['box'];
}

/** The number's characters in one of the pass's lines, as read, with their confidences and boxes; null when none holds it. */
function numberCharacters(number: string, read: BandText): { text: string; confidence: number; box: OcrSymbol['box'] }[] | null {
  for (const line of read.lines) {
    // One entry per character, whatever the engine's symbols hold.
    const characters = (line.symbols ?? []).flatMap((symbol) => [...symbol.text].map((text) => ({ text, confidence: symbol.confidence, box: symbol.box })));
    const at = characters.map((c) => c.text).join('').indexOf(number);
    if (at >= 0) return characters.slice(at, at + number.length);
  }
  return null;
}

/**
 * The check-blind characters (CHECK_BLIND_PARTNER) of a valid reading's document number, with their boxes in the pass
 * `read` it came from, for reading each again alone. Only a number read as it stands in one of the pass's lines: a
 * repaired one is in review already.
 */
export function checkBlindCells(reading: MrzReading, read: BandText): CheckBlindCell[] {
  const number = reading.documentNumber;
  if (!reading.valid || !number) return [];
  const characters = numberCharacters(number, read) ?? [];
  return characters.flatMap((c, index) => (CHECK_BLIND_PARTNER[c.text] ? [{ index, character: c.text, box: c.box }] : []));
}

/**
 * The reading with `uncertainCharacters` naming the document number when a character of it that no check digit can
 * tell from its look-alike (G/6, F/5, S/8) was read, in the pass `read` it came from, under MIN_CHECK_BLIND_CONFIDENCE,
 * or read alone again (`alone`: index in the number → what the cell read alone, null for nothing) as its look-alike.
 * Only a number read as it stands in one of the pass's lines is looked at: a repaired one is in review already.
 */
export function withUncertainCharacters(reading: MrzReading, read: BandText, alone: ReadonlyMap<number, string | null> = new Map()): MrzReading {
  const number = reading.documentNumber;
  if (!reading.valid || !number) return reading;
  const characters = numberCharacters(number, read);
  if (!characters) return reading;
  const doubtful = characters.some(
    (c, i) => CHECK_BLIND_PARTNER[c.text] !== undefined && (c.confidence < MIN_CHECK_BLIND_CONFIDENCE || alone.get(i) === CHECK_BLIND_PARTNER[c.text]),
  );
  return doubtful ? { ...reading, uncertainCharacters: [...new Set([...reading.uncertainCharacters, 'documentNumber'])] } : reading;
}
