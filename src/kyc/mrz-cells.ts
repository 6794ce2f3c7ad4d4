// MRZ lines rebuilt from the OCR's character boxes. The MRZ font is monospaced: every line has the layout's number of
// character cells at one pitch. The OCR's line text loses that: it splits one glyph into two (J read as "JI", 9 as
// "9O"), merges a run of fillers into one wide `<`, or drops a glyph, and the line comes out with characters added in
// one place and lost in another, which no length repair can put back. Placed by their boxes, the characters fall
// into their cells again: a cell the OCR read twice offers both readings, and the check digits choose between them.
// Pure: analyse.ts calls it on an invalid reading with the boxes readMrzBand returned.
import {
  checkDigitsHold, checkedFieldAt, checkedPlace, fieldAt, FILLER_NOISE, hasComposite, LOOK_ALIKES, readMrz, type MrzFormat, type MrzReading,
} from './mrz.ts';
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

/** The width of one character cell of a `length`-character MRZ in the pass (cellGeometry's pitch); null without a filler run. */
export const cellPitch = (read: BandText, length: number): number | null => cellGeometry(read.lines, length)?.pitch ?? null;

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
  const k = sourceLines([lines[lineIndex]!], mrzLines.map((line) => line.symbols.map((s) => s.text)), 0.5)[0];
  if (k == null) return null;
  const source = mrzLines[k]!;
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
    const source = sourceLines(primary.lines, lines.map((cells) => cells.map((c) => c.best))).map((k) => k ?? 0);
    const ambiguous = primary.lines.flatMap((_, m) =>
      lines[source[m]!]!.flatMap((cell, i) => {
        const place = checkedPlace(primary.format, m, i);
        return place && cell.others.length > 0 ? [{ key: `${source[m]}:${i}`, place, options: [cell.best, ...cell.others] }] : [];
      }),
    );
    const confirmed = hasComposite(primary.format) ? MAX_AMBIGUOUS_CELLS : MAX_UNCONFIRMED_AMBIGUOUS_CELLS;
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
    reading = withChangedAsRepairs(reading, plain);
    const faults = (r: MrzReading) => r.invalidFields.length;
    if (!best || (reading.valid && !best.valid) || faults(reading) < faults(best)) best = reading;
    if (best.valid) break;
  }
  return best;
}

/**
 * A reading of the cells (or of mrz-pitch.ts) valid where the line text's (`plain`) was not: the check digits chose
 * its characters. Every checked field that differs from the line text's reading is a check-digit repair (review),
 * never a plain pass.
 */
export function withChangedAsRepairs(reading: MrzReading, plain: MrzReading | null): MrzReading {
  if (!reading.valid) return reading;
  const changed = reading.lines.flatMap((line, m) =>
    [...line].flatMap((c, i) => {
      const place = plain?.format === reading.format && plain.lines[m]?.[i] === c ? null : checkedPlace(reading.format, m, i);
      return place ? [place] : [];
    }),
  );
  return { ...reading, checkDigitRepairs: [...new Set([...reading.checkDigitRepairs, ...changed])] };
}

/**
 * Which of `texts` (OCR lines, each a string or one string per character) each MRZ line came from: the one sharing most
 * characters with it at the same places, the first of equals; null when that one shares fewer than `minShare` of the
 * line's characters. Used to locate cells (characterBox, cellBox, readMrzByCells); the confidences of a line's
 * characters are looked up through alignedSourceLines, which a leading speck does not throw off.
 */
export function sourceLines(lines: string[], texts: readonly (string | readonly string[])[], minShare = 0): (number | null)[] {
  return lines.map((line) => {
    const shared = (text: string | readonly string[]) => [...line].filter((c, i) => text[i] === c).length;
    let best: number | null = null;
    texts.forEach((text, k) => {
      if (best === null || shared(text) > shared(texts[best]!)) best = k;
    });
    return best !== null && shared(texts[best]!) >= minShare * line.length ? best : null;
  });
}

/**
 * Like sourceLines, but by alignment (alignCharacters), so a speck read before the line does not shift every character
 * off its place: the OCR line with most of the MRZ line's letters and digits read as they stand in its alignment, then
 * most of all its characters, then fewest edits, the first of equals; null when fewer than `minShare` of all its
 * characters are. A filler read as one of the letters OCR-B's '<' comes out as (FILLER_NOISE) counts as read as it
 * stands: a short name's line is mostly filler tail, which tesseract reads `KLKLL…`, and without that it found no
 * source line, so its letters were never read alone (`OKAFOR<<KOLGA`). Those fillers count only after the letters
 * and digits have chosen the line: every TD1 line ends in fillers, and a name line whose tail was partly lost would
 * otherwise go to the first line, whose tail read as more K and L, and have its letters read in that line's boxes.
 */
export function alignedSourceLines(lines: string[], texts: readonly (string | readonly string[])[], minShare = 0): (number | null)[] {
  return lines.map((line) => {
    let best: { k: number; lettersAndDigits: number; shared: number; cost: number } | null = null;
    texts.forEach((text, k) => {
      const read = [...text];
      const { placed, cost } = alignment(line, read);
      const asRead = placed.map((j, i) => j !== null && read[j] === line[i]);
      const lettersAndDigits = asRead.filter((same, i) => same && line[i] !== '<').length;
      const shared = placed.filter((j, i) => asRead[i] || (j !== null && line[i] === '<' && FILLER_NOISE.test(read[j]!))).length;
      const ranks = (b: NonNullable<typeof best>) => [lettersAndDigits - b.lettersAndDigits, shared - b.shared, b.cost - cost];
      if (best === null || (ranks(best).find((d) => d !== 0) ?? 0) > 0) best = { k, lettersAndDigits, shared, cost };
    });
    const found = best as { k: number; shared: number } | null;
    return found !== null && found.shared >= minShare * line.length ? found.k : null;
  });
}

/** The edit table of alignCharacters: cost[i][j], the edits turning line[0, i) into read[0, j). */
function editTable(line: string, read: readonly string[]): number[][] {
  const n = line.length;
  const m = read.length;
  const cost = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + (line[i - 1] === read[j - 1] ? 0 : 1), cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  return cost;
}

/** The alignment of fewest edits of `read` to `line` (see alignCharacters) and its number of edits, from one table. */
function alignment(line: string, read: readonly string[]): { placed: (number | null)[]; cost: number } {
  const n = line.length;
  const m = read.length;
  const cost = editTable(line, read);
  const placed: (number | null)[] = Array.from({ length: n }, () => null);
  for (let i = n, j = m; i > 0; ) {
    if (j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (line[i - 1] === read[j - 1] ? 0 : 1)) placed[--i] = --j;
    else if (cost[i]![j] === cost[i - 1]![j]! + 1) i--;
    else j--;
  }
  return { placed, cost: cost[n]![m]! };
}

/**
 * For every character of `line`, the index of the character of `read` it was read as (the same or another), null for
 * one the OCR gave no character for (a filler run read as one `<`, a dropped glyph): the alignment of fewest edits.
 */
export function alignCharacters(line: string, read: readonly string[]): (number | null)[] {
  return alignment(line, read).placed;
}

/**
 * Under this confidence (or with none) a character of a checked field is not believed: its look-alikes are tried
 * against the check digits. Development seed 3187 (`--mrz-only --per-cell 3`, round 7, 158 numbers read valid and
 * found in a pass's characters): genuine G, F and 5 were read at 93–99, 6 at 89–99 (three under 93); a 6 read as G at
 * 88 held every check digit with the wrong number. Round 8 (same seed): genuine S read at 96–99, 8 at 71–99 (4 of 54
 * under 93).
 */
export const MIN_CHECK_BLIND_CONFIDENCE = 93;
/**
 * Doubtful characters changed together when looking for another reading that holds every check digit: one finds a
 * character whose look-alike is worth a multiple of 10 more or less (G/6, F/5, U/0, L/1, S/8), two a pair whose
 * shifts cancel under their weights (B for 8 under weights 3 and 7, O for 0 twice); more would find one by chance.
 */
const MAX_DOUBTFUL_SWAPS = 2;
/**
 * Characters read alone as others whose mixes withUncertainCharacters tries (2^n of them). More, and the two reads did
 * not see the same glyphs: the fields are doubted without trying.
 */
const MAX_READ_ALONE_MIX = 12;
/**
 * The look-alikes of each character, both ways (LOOK_ALIKES lists some one way only), and F for 5 (15 and 5), S for 8
 * (28 and 8), P for F (25 and 15), T for 1 and K for a filler (20 and 0), which no class repair needs.
 */
const DOUBTFUL_LOOK_ALIKES: Record<string, string[]> = (() => {
  const table: Record<string, Set<string>> = {};
  const add = (a: string, b: string) => {
    (table[a] ??= new Set()).add(b);
    (table[b] ??= new Set()).add(a);
  };
  for (const [c, others] of Object.entries(LOOK_ALIKES)) for (const other of others) add(c, other);
  add('F', '5');
  add('S', '8');
  // P for F (25 and 15, the same bowl on the same stem), K for a filler (20 and 0: the OCR reads the end of a
  // field's padding as K, confidently).
  add('F', 'P');
  add('K', '<');
  // OCR-B's 1 stands on a foot: the model reads it T (line pass T 64, 1 63), and C01X00T47 read COTX00T47 (O for 0
  // under weight 3, T for 1 under weight 1: 72 + 28) held every check digit.
  add('T', '1');
  return Object.fromEntries(Object.entries(table).map(([c, others]) => [c, [...others]]));
})();

/** A character of the pass as read: its text, the engine's confidence and its box. */
interface ReadCharacter {
  text: string;
  confidence: number;
  box: OcrSymbol['box'];
}

/**
 * For every character of every MRZ line of `reading`, the pass's character it was read as, null for none: each MRZ
 * line is looked up on the OCR line it came from (alignedSourceLines, half its characters in place at least) and its
 * characters placed by alignment (alignCharacters), so a number printed elsewhere on the page is not taken for the
 * MRZ's and a filler run read as one `<` does not shift the rest.
 */
function placedCharacters(reading: MrzReading, read: BandText): (ReadCharacter | null)[][] {
  // One entry per character, whatever the engine's symbols hold.
  const ocrLines = read.lines.map((line) =>
    (line.symbols ?? []).flatMap((symbol) => [...symbol.text].map((text) => ({ text, confidence: symbol.confidence, box: symbol.box }))),
  );
  const sources = alignedSourceLines(reading.lines, ocrLines.map((characters) => characters.map((c) => c.text)), 0.5);
  return reading.lines.map((line, m) => {
    const characters = sources[m] === null ? [] : ocrLines[sources[m]!]!;
    const placed = characters.length > 0 ? alignCharacters(line, characters.map((c) => c.text)) : [];
    return [...line].map((_, i) => (placed[i] == null ? null : characters[placed[i]!]!));
  });
}

/**
 * Every character of a reading's field `name` (the TD1 number's overflow included; names too) or check digit (`<field>CheckDigit`,
 * at its place in the layout), with the pass's character it was read as (placedCharacters: its text and box), null
 * where the pass gave none.
 */
export function fieldCells(reading: MrzReading, read: BandText, name: string): { line: number; index: number; read: ReadCharacter | null }[] {
  const placed = placedCharacters(reading, read);
  const nameAt = (m: number, i: number) => checkedFieldAt(reading, m, i)?.name ?? checkedPlace(reading.format, m, i) ?? fieldAt(reading.format, m, i);
  return reading.lines.flatMap((line, m) => [...line].flatMap((_, i) => (nameAt(m, i) === name ? [{ line: m, index: i, read: placed[m]![i] ?? null }] : [])));
}

/** A character of a valid reading to read again alone, where the pass read it (MRZ line, index, box), and its look-alikes. */
export interface CellToReadAlone {
  line: number;
  index: number;
  character: string;
  partners: readonly string[];
  box: OcrSymbol['box'];
}

/** The key of an MRZ place in `withUncertainCharacters`' `alone` map. */
export const placeKey = (line: number, index: number) => `${line}:${index}`;

/**
 * The characters of a valid reading to read again alone, each among itself and its look-alikes, with their boxes in
 * the pass `read` they came from (placedCharacters):
 * - every character of the document number (the TD1 overflow included) with a look-alike (DOUBTFUL_LOOK_ALIKES), all
 *   of them (round 11): two different confident look-alikes can cancel in every check digit (5 as S under weight 7
 *   and 8 as B under weight 3: 161 + 9), which only reading each glyph apart from its neighbours shows; until round
 *   10 only those a multiple of 10 apart (G/6, F/5, S/8, U/0, L/1), which a single swap already hides;
 * - the letters with a look-alike of the other checked letters-and-digits fields (TD3 personal number, TD1 optional
 *   fields, the French office field), among all their look-alikes: a personal number 83784131 read 83T8A131 holds
 *   its check digit and the composite (T for 7 under weight 1, A for 4 under weight 3: 22 + 18). Until round 11 only
 *   G, F, S, U and L, among their check-blind digit. Their digits are not read: those fields are mostly digits (one
 *   tesseract pass each), and the OCR's misreads there are digits read as letters.
 * Only characters the pass read as they stand, and not in a repaired field: that one is in review already.
 */
export function cellsToReadAlone(reading: MrzReading, read: BandText): CellToReadAlone[] {
  if (!reading.valid) return [];
  const placed = placedCharacters(reading, read);
  return reading.lines.flatMap((line, m) =>
    [...line].flatMap((character, i) => {
      const at = placed[m]![i];
      const field = checkedFieldAt(reading, m, i);
      if (!at || at.text !== character || !field || field.kind !== 'X' || reading.checkDigitRepairs.includes(field.name)) return [];
      if (field.name !== 'documentNumber' && !/[A-Z]/.test(character)) return [];
      // Of a short number's padding only the first filler: a K is doubted only where the field meets its padding.
      if (character === '<' && line[i - 1] === '<') return [];
      const partners = (DOUBTFUL_LOOK_ALIKES[character] ?? []).filter((other) => other !== '<');
      return partners.length > 0 ? [{ line: m, index: i, character, partners, box: at.box }] : [];
    }),
  );
}

/**
 * The checked letters-and-digits fields of a valid reading (not repaired) holding a doubled letter whose digit
 * look-alike, taken for both, holds every check digit whatever the confidence they were read with: the same shift
 * under weights 7 and 3 is 10 times the shift (round 10, seed 6067: J7V77XN28 read J7VTTXN28). The OCR makes the same
 * mistake on a doubled glyph twice, and neither check digit nor composite (which weighs a number as its own check
 * digit does) can tell the two readings apart. Only a doubled letter read where digits may be printed (the OCR's
 * misreads in these fields are digits read as letters): any two look-alikes under weights 7 and 3 would doubt most
 * numbers (63 % of 400 random ones), any adjacent double 13 % (of 3,000) and doubled digits nearly every French card
 * and personal number (review 29 → 59 % on seed 6067, with analyse.ts numberReadOtherwise).
 */
function fieldsWithCancellingTwins(reading: MrzReading): string[] {
  const found = new Set<string>();
  reading.lines.forEach((line, m) => {
    for (let i = 0; i + 1 < line.length; i++) {
      const letter = line[i]!;
      const field = checkedFieldAt(reading, m, i);
      if (!/[A-Z]/.test(letter) || line[i + 1] !== letter || !field || field.kind !== 'X' || found.has(field.name)) continue;
      if (checkedFieldAt(reading, m, i + 1)?.name !== field.name || reading.checkDigitRepairs.includes(field.name)) continue;
      for (const digit of (DOUBTFUL_LOOK_ALIKES[letter] ?? []).filter((other) => /[0-9]/.test(other))) {
        const lines = reading.lines.map((l, k) => (k === m ? l.slice(0, i) + digit + digit + l.slice(i + 2) : l));
        if (checkDigitsHold(reading.format, lines)) found.add(field.name);
      }
    }
  });
  return [...found];
}

/** A character of an MRZ line another read gave otherwise: where (line, index) and what that read saw there. */
export interface OtherRead {
  line: number;
  index: number;
  character: string;
}

/**
 * The first non-empty mix of `others` (each taken or left) that, put into `lines`, holds every check digit of `format`;
 * null for none. Two reads of the same glyphs that disagree at places whose mix also holds: the check digits did not
 * choose between them.
 */
export function holdingMix<T extends OtherRead>(format: MrzFormat, lines: readonly string[], others: readonly T[]): T[] | null {
  for (let mix = 1; mix < 1 << others.length; mix++) {
    const taken = others.filter((_, k) => mix & (1 << k));
    const mixed = lines.map((line) => [...line]);
    for (const { line, index, character } of taken) mixed[line]![index] = character;
    if (checkDigitsHold(format, mixed.map((line) => line.join('')))) return taken;
  }
  return null;
}

/**
 * The reading with `uncertainCharacters` naming the checked fields (own check digit or composite) where characters the
 * OCR read, in the pass `read` it came from, under MIN_CHECK_BLIND_CONFIDENCE or with no confidence, or read again
 * alone as another character (`alone`: placeKey → what the cell read alone, null for nothing; analyse.ts fills it for
 * cellsToReadAlone), could be swapped for their look-alikes (up to MAX_DOUBTFUL_SWAPS of them, letters and digits fields
 * only) with every check digit still holding: the check digits do not vouch for what was read there. Characters are
 * found by placedCharacters. A field whose own check digit the pass read as a letter is listed when any of its
 * characters is doubtful. Fields already in `checkDigitRepairs` are in review already.
 */
export function withUncertainCharacters(reading: MrzReading, read: BandText, alone: ReadonlyMap<string, string | null> = new Map()): MrzReading {
  if (!reading.valid) return reading;
  const placed = placedCharacters(reading, read);
  const swaps = reading.lines.flatMap((line, m) =>
    [...line].flatMap((c, i) => {
      const field = checkedFieldAt(reading, m, i);
      if (!field || reading.checkDigitRepairs.includes(field.name)) return [];
      const at = placed[m]![i];
      // A digits field's letter, made a digit by its class (mrz.ts corrections): O stands for 0 or 9, Z for 2 or 7. A
      // visa's 1999 read OO0315 is taken as 2000 (9 twice under weights 7 and 3): the other digits are tried too.
      if (field.kind === 'N') {
        const read = at && /[A-Z]/.test(at.text) && reading.corrections.includes(field.name) ? at.text : null;
        const digits = read ? (DOUBTFUL_LOOK_ALIKES[read] ?? []).filter((other) => /[0-9]/.test(other) && other !== c) : [];
        return digits.map((other) => ({ m, i, other, field: field.name }));
      }
      if (field.kind !== 'X') return [];
      const againAlone = alone.get(placeKey(m, i));
      const readAloneAsOther = againAlone != null && againAlone !== c;
      // The field's neighbours on either side (null past its ends): K and a filler are swapped only where a field's
      // characters meet its padding, the one place a filler read as K (or a K as a filler) gives a plausible field.
      const inField = (j: number) => (checkedFieldAt(reading, m, j)?.name === field.name ? line[j]! : null);
      const before = inField(i - 1);
      const after = inField(i + 1);
      const kAtPadding = c === 'K' && (after === null || after === '<' || before === '<');
      const firstFiller = c === '<' && before !== null && before !== '<';
      // The OCR reads a filler as K at confidence 95: a K at the padding is doubtful however confidently read.
      if (!kAtPadding && at && at.confidence >= MIN_CHECK_BLIND_CONFIDENCE && !readAloneAsOther) return [];
      return (DOUBTFUL_LOOK_ALIKES[c] ?? [])
        .filter((other) => (other === '<' ? kAtPadding : c !== '<' || firstFiller))
        .map((other) => ({ m, i, other, field: field.name }));
    }),
  );
  const uncertain = new Set<string>();
  const tryFrom = (from: number, lines: string[][], taken: typeof swaps, left: number): void => {
    for (let k = from; k < swaps.length; k++) {
      const swap = swaps[k]!;
      if (taken.some((t) => t.m === swap.m && t.i === swap.i)) continue;
      const previous = lines[swap.m]![swap.i]!;
      lines[swap.m]![swap.i] = swap.other;
      const now = [...taken, swap];
      if (checkDigitsHold(reading.format, lines.map((l) => l.join('')))) for (const t of now) uncertain.add(t.field);
      if (left > 1) tryFrom(k + 1, lines, now, left - 1);
      lines[swap.m]![swap.i] = previous;
    }
  };
  tryFrom(0, reading.lines.map((line) => [...line]), [], MAX_DOUBTFUL_SWAPS);
  // A check digit read as a letter was made a digit by its class (T as 7): it vouches for little, and a field of its
  // with doubtful glyphs is not taken on its word (9URJWCT9A read QURJWCTIA held with T taken for 7).
  reading.lines.forEach((line, m) =>
    [...line].forEach((_, i) => {
      const place = checkedPlace(reading.format, m, i);
      const at = placed[m]![i];
      if (!place?.endsWith('CheckDigit') || !at || !/[A-Z]/.test(at.text)) return;
      const field = place.slice(0, -'CheckDigit'.length);
      if (swaps.some((swap) => swap.field === field)) uncertain.add(field);
    }),
  );
  // The characters read alone as others, put in together: three or more look-alikes can cancel in every check digit
  // too (K010281W5 read K01OZB1W5), past MAX_DOUBTFUL_SWAPS; what the glyphs read alone is no chance combination.
  const readAloneOtherwise = [...alone].flatMap(([key, character]) => {
    const [m, i] = key.split(':').map(Number) as [number, number];
    const field = checkedFieldAt(reading, m, i);
    const counts = field && field.kind === 'X' && !reading.checkDigitRepairs.includes(field.name);
    return counts && character != null && character !== reading.lines[m]![i] ? [{ line: m, index: i, character, field: field.name }] : [];
  });
  const doubted = readAloneOtherwise.length > MAX_READ_ALONE_MIX ? readAloneOtherwise : holdingMix(reading.format, reading.lines, readAloneOtherwise);
  for (const { field } of doubted ?? []) uncertain.add(field);
  for (const field of fieldsWithCancellingTwins(reading)) uncertain.add(field);
  return uncertain.size === 0 ? reading : { ...reading, uncertainCharacters: [...new Set([...reading.uncertainCharacters, ...uncertain])] };
}
