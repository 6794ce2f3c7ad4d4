// MRZ lines rebuilt from the OCR's character boxes (mrz-cells.ts): OCR lines as tesseract gives them for a TD1 card,
// with the faults it makes on the generated set (a glyph split in two, a run of fillers read as one wide filler).
import { describe, expect, it } from 'vitest';
import { composeMrz, composeTd1, SPECIMEN_HOLDER, type PassportHolder } from '../../scripts/make-kyc-specimen.ts';
import { mrzCheckDigit, readMrz, type MrzReading } from '../../src/kyc/mrz.ts';
import {
  alignCharacters,
  alignedSourceLines,
  cellBox,
  cellLines,
  cellsToReadAlone,
  MIN_CHECK_BLIND_CONFIDENCE,
  placeKey,
  readMrzByCells,
  sourceLines,
  withUncertainCharacters,
} from '../../src/kyc/mrz-cells.ts';
import type { BandText, OcrSymbol } from '../../src/kyc/ocr.ts';

const NOW = new Date('2026-06-01T12:00:00Z');
const HOLDER: PassportHolder = {
  surname: 'KOWALSKA',
  givenNames: 'LI',
  issuingState: 'JPN',
  nationality: 'JPN',
  documentNumber: 'PT4S25J96',
  birthDate: '530619',
  sex: 'F',
  expiryDate: '300515',
  personalNumber: '83784131',
};
const PITCH = 30;

/**
 * An OCR line over `line`'s cells: each cell read as its character (confidence 95) unless `reads` says otherwise
 * (several symbols side by side inside the cell, with their confidences); `merged` cells [from, to] are one wide filler.
 */
function ocrLine(line: string, top: number, reads: Record<number, [string, number][]> = {}, merged?: [number, number]): BandText['lines'][number] {
  const symbols: OcrSymbol[] = [];
  [...line].forEach((c, i) => {
    if (merged && i > merged[0] && i <= merged[1]) return;
    const x0 = 10 + i * PITCH;
    if (merged && i === merged[0]) {
      symbols.push({ text: '<', confidence: 80, box: { x0: x0 + 3, y0: top, x1: 10 + (merged[1] + 1) * PITCH - 3, y1: top + 40 } });
      return;
    }
    const parts = reads[i] ?? [[c, 95]];
    parts.forEach(([text, confidence], k) => {
      const width = (PITCH - 6) / parts.length;
      symbols.push({ text, confidence, box: { x0: x0 + 3 + k * width, y0: top, x1: x0 + 3 + (k + 1) * width, y1: top + 40 } });
    });
  });
  const text = symbols.map((s) => s.text).join('');
  return { text, box: { x0: symbols[0]!.box.x0, y0: top, x1: symbols.at(-1)!.box.x1, y1: top + 40 }, symbols };
}

const band = (lines: BandText['lines']): BandText => ({ text: lines.map((l) => l.text).join('\n'), lines });

/** MRZ lines read as they stand, one OCR line each: the pass and its reading. */
function readAsPrinted(lines: string[]): { read: BandText; reading: MrzReading } {
  const read = band(lines.map((text, m) => ocrLine(text, 60 * m)));
  return { read, reading: readMrz(read.text, NOW)! };
}

describe('MRZ read from character cells', () => {
  const td1 = composeTd1(HOLDER);
  const J = td1[0].indexOf('J', 5);
  const NINE = td1[0].indexOf('9', 5);

  it('puts a glyph read twice into one cell and spreads a wide filler over its cells', () => {
    const lines = [ocrLine(td1[0], 0, { [J]: [['J', 90], ['I', 80]] }, [24, 29]), ocrLine(td1[1], 60), ocrLine(td1[2], 120)];
    expect(lines[0]!.text).toHaveLength(26);
    const cells = cellLines(lines, 30)!;
    expect(cells.map((line) => line.map((c) => c.best).join(''))).toEqual(td1);
    expect(cells[0]![J]).toEqual({ best: 'J', others: ['I'] });
    expect(cells[0]!.filter((c) => c.others.length > 0)).toHaveLength(1);
  });

  it('lets the check digits choose between the two readings of a split glyph, and says so (review)', () => {
    // 9 read as "9O" with the O more confident, J as "JI": the line is two characters long, and the O is wrong.
    const lines = [ocrLine(td1[0], 0, { [J]: [['J', 90], ['I', 80]], [NINE]: [['9', 85], ['O', 89]] }), ocrLine(td1[1], 60), ocrLine(td1[2], 120)];
    expect(readMrz(band(lines).text, NOW)?.valid).not.toBe(true);
    const reading = readMrzByCells(band(lines), NOW)!;
    expect(reading).toMatchObject({ valid: true, format: 'TD1', documentNumber: HOLDER.documentNumber, lines: td1 });
    expect(reading.checkDigitRepairs).toContain('documentNumber');
  });

  it('never makes a tampered number pass, and refuses a choice the check digits cannot make', () => {
    const tampered = [td1[0].slice(0, 14) + String((Number(td1[0][14]) + 3) % 10) + td1[0].slice(15), td1[1], td1[2]];
    const split = { [J]: [['J', 90], ['I', 80]] as [string, number][], [NINE]: [['9', 85], ['O', 89]] as [string, number][] };
    const lines = [ocrLine(tampered[0]!, 0, split), ocrLine(tampered[1]!, 60), ocrLine(tampered[2]!, 120)];
    expect(readMrzByCells(band(lines), NOW)?.valid).toBe(false);
    // 5 and F weigh the same in every check digit (5 and 15): a cell read as both holds either way.
    const five = td1[0].indexOf('5', 5);
    const either = [ocrLine(td1[0], 0, { [five]: [['5', 90], ['F', 88]] }), ocrLine(td1[1], 60), ocrLine(td1[2], 120)];
    expect(readMrzByCells(band(either), NOW)).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
  });

  it('does not let a visa’s one check digit choose between two readings of a cell', () => {
    const visa = composeMrz('MRVB', HOLDER);
    const at = visa[1]!.indexOf('J');
    const right = [ocrLine(visa[0]!, 0), ocrLine(visa[1]!, 60, { [at]: [['J', 90], ['I', 80]] })];
    const plain = readMrz(band(right).text, NOW);
    expect(plain?.valid).not.toBe(true);
    expect(readMrzByCells(band(right), NOW, plain)).toMatchObject({ valid: true, documentNumber: HOLDER.documentNumber, checkDigitRepairs: ['documentNumber'] });
    // J read as 3 (no look-alike of J's, so readMrz's own one-swap visa repair cannot bring it back) more confidently.
    const wrong = [ocrLine(visa[0]!, 0), ocrLine(visa[1]!, 60, { [at]: [['3', 90], ['J', 80]] })];
    expect(readMrzByCells(band(wrong), NOW)).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
  });

  it('reads nothing from lines without character boxes or MRZ shape', () => {
    expect(readMrzByCells(band(td1.map((text, i) => ({ text, box: { x0: 0, y0: 60 * i, x1: 900, y1: 60 * i + 40 } }))), NOW)).toBeNull();
    expect(readMrzByCells(band([ocrLine('IDENTITY CARD SPECIMEN', 0)]), NOW)).toBeNull();
  });
});

describe('characters no check digit can tell from their look-alike', () => {
  // Generated MRV-B (seed 3187): GTDNB6ALV read GTDNBGALV, the G at confidence 88, every check digit holding.
  const visa = ['V<UTOTANAKA<<OLGA<<<<<<<<<<<<<<<<<<<', 'GTDNB6ALV6UTO8101143M330123698408626'];
  const SIX = visa[1]!.indexOf('6');
  const readAs = (text: string, confidence: number) => band([ocrLine(visa[0]!, 0), ocrLine(visa[1]!, 60, { [SIX]: [[text, confidence]] })]);

  it('sends a number whose G or 6 (F or 5) was read with low confidence to review', () => {
    const misread = readAs('G', 88);
    const reading = readMrz(misread.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: 'GTDNBGALV', checkDigitRepairs: [], uncertainCharacters: [] });
    expect(withUncertainCharacters(reading, misread).uncertainCharacters).toEqual(['documentNumber']);
    const doubtfulSix = readAs('6', MIN_CHECK_BLIND_CONFIDENCE - 1);
    expect(withUncertainCharacters(readMrz(doubtfulSix.text, NOW)!, doubtfulSix).uncertainCharacters).toEqual(['documentNumber']);
  });

  it('sends an 8 or S read with low confidence to review as well (S and 8 weigh the same in every check digit)', () => {
    // Generated TD1 (seed 6421): 8MEDE1D1D read SMEDE1D1D, every check digit holding.
    const lines = composeMrz('MRVB', { ...HOLDER, documentNumber: '8MEDE1D1D' });
    const readEight = (text: string, confidence: number) => band([ocrLine(lines[0]!, 0), ocrLine(lines[1]!, 60, { 0: [[text, confidence]] })]);
    const misread = readEight('S', MIN_CHECK_BLIND_CONFIDENCE - 3);
    const reading = readMrz(misread.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: 'SMEDE1D1D', checkDigitRepairs: [], uncertainCharacters: [] });
    expect(withUncertainCharacters(reading, misread).uncertainCharacters).toEqual(['documentNumber']);
    const confident = readEight('8', 98);
    expect(withUncertainCharacters(readMrz(confident.text, NOW)!, confident).uncertainCharacters).toEqual([]);
  });

  it('sends a number to review when a check-blind character read alone reads as its look-alike', () => {
    // Generated MRV-B (seed 6421, blurred): ZKENUAE6E read ZKENUAEGE in its line, the G at confidence 96; alone, 6.
    const lines = composeMrz('MRVB', { ...HOLDER, documentNumber: 'ZKENUAE6E' });
    const SIX_AT = lines[1]!.indexOf('6');
    const read = band([ocrLine(lines[0]!, 0), ocrLine(lines[1]!, 60, { [SIX_AT]: [['G', 96]] })]);
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: 'ZKENUAEGE', uncertainCharacters: [] });
    // The number's characters with a look-alike (Z, U, A and G here), with their boxes in the pass, for reading each
    // alone among them.
    const at = (c: string) => lines[1]!.indexOf(c);
    expect(cellsToReadAlone(reading, read)).toEqual([
      { line: 1, index: at('Z'), character: 'Z', partners: ['2', '7'], box: read.lines[1]!.symbols![at('Z')]!.box },
      { line: 1, index: at('U'), character: 'U', partners: ['0'], box: read.lines[1]!.symbols![at('U')]!.box },
      { line: 1, index: at('A'), character: 'A', partners: ['4'], box: read.lines[1]!.symbols![at('A')]!.box },
      { line: 1, index: SIX_AT, character: 'G', partners: ['6'], box: read.lines[1]!.symbols![SIX_AT]!.box },
    ]);
    expect(withUncertainCharacters(reading, read).uncertainCharacters).toEqual([]);
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, SIX_AT), '6']])).uncertainCharacters).toEqual(['documentNumber']);
    // Alone it reads as read, or as nothing: believed.
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, SIX_AT), 'G']])).uncertainCharacters).toEqual([]);
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, SIX_AT), null]])).uncertainCharacters).toEqual([]);
    // A number without a character that has a look-alike has nothing to read alone.
    const plain = composeMrz('MRVB', { ...HOLDER, documentNumber: 'XKENHMEX3' });
    const plainRead = band([ocrLine(plain[0]!, 0), ocrLine(plain[1]!, 60)]);
    expect(cellsToReadAlone(readMrz(plainRead.text, NOW)!, plainRead)).toEqual([]);
  });

  it('doubts a number whose two different confident look-alikes cancel in every check digit once its characters are read alone', () => {
    // Generated TD2 (seed 8821, shear): 5R3Y8M3ZB read SR3YBM3ZB, 5 as S under weight 7 and 8 as B under weight 3
    // (161 + 9), both at confidence 99; generated TD1 (seed 6067, scanner noise): A46AZ47ZH read A46AZATZH, 4 as A under
    // weight 1 and 7 as T under weight 7 (6 + 154). Every format: the number's check digit and the composite hold both.
    const cases = [
      { printed: '5R3Y8M3ZB', read: 'SR3YBM3ZB' },
      { printed: 'A46AZ47ZH', read: 'A46AZATZH' },
    ];
    for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB'] as const) {
      for (const { printed, read: asRead } of cases) {
        const genuine = composeMrz(format, { ...HOLDER, documentNumber: printed });
        const line = format === 'TD1' ? 0 : 1;
        const start = genuine[line]!.indexOf(printed);
        const misread = genuine.map((text, m) => (m === line ? text.slice(0, start) + asRead + text.slice(start + asRead.length) : text));
        const read = band(misread.map((text, m) => ocrLine(text, 60 * m, Object.fromEntries([...text].map((c, i) => [i, [[c, 99]]])))));
        const reading = readMrz(read.text, NOW)!;
        const label = `${format} ${asRead}`;
        expect(reading, label).toMatchObject({ valid: true, documentNumber: asRead, checkDigitRepairs: [], uncertainCharacters: [] });
        // Confident, and no single look-alike holds: the line alone doubts nothing.
        expect(withUncertainCharacters(reading, read).uncertainCharacters, label).toEqual([]);
        // Every character of the number with a look-alike is read alone among them (S among S, 5 and 8; T among T, 7, Z).
        const cells = cellsToReadAlone(reading, read).filter((cell) => cell.line === line);
        const swapped = [...asRead].flatMap((c, k) => (c !== printed[k] ? [start + k] : []));
        for (const index of swapped) expect(cells.find((cell) => cell.index === index)?.partners, label).toContain(printed[index - start]);
        // Both read alone as printed: another reading holds every check digit, the number goes to review.
        const alone = (indexes: number[]) => new Map(indexes.map((i) => [placeKey(line, i), printed[i - start]!] as const));
        expect(withUncertainCharacters(reading, read, alone(swapped)).uncertainCharacters, label).toEqual(['documentNumber']);
        // Read alone as the line read them, or as nothing: believed.
        const asLine = new Map(swapped.map((i) => [placeKey(line, i), asRead[i - start]!] as const));
        expect(withUncertainCharacters(reading, read, asLine).uncertainCharacters, label).toEqual([]);
        const nothing = new Map(swapped.map((i) => [placeKey(line, i), null] as const));
        expect(withUncertainCharacters(reading, read, nothing).uncertainCharacters, label).toEqual([]);
      }
    }
  });

  it("doubts OCR-B's 1 read as T beside a 0 read as O, whose shifts cancel in every check digit (72 + 28)", () => {
    // Rendered TD3 in OCR-B (clean and JPEG q30): C01X00T47 read COTX00T47 in its line, the T at confidence 88 (the
    // model's second choice 1, at 63), the O at 98; alone among its look-alikes the O reads 0.
    const genuine = composeMrz('TD3', { ...HOLDER, documentNumber: 'C01X00T47' });
    const misread = [genuine[0]!, genuine[1]!.replace('C01X00T47', 'COTX00T47')];
    const read = band(misread.map((text, m) => ocrLine(text, 60 * m, m === 1 ? { 2: [['T', 88]] } : {})));
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: 'COTX00T47', checkDigitRepairs: [], uncertainCharacters: [] });
    expect(cellsToReadAlone(reading, read).find((cell) => cell.index === 2)?.partners).toContain('1');
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, 1), '0']])).uncertainCharacters).toEqual(['documentNumber']);
    // The printed number read as printed, every glyph confirmed alone: a plain pass.
    const clean = readAsPrinted(genuine);
    const confirmed = new Map(cellsToReadAlone(clean.reading, clean.read).map((cell) => [placeKey(cell.line, cell.index), cell.character] as const));
    expect(withUncertainCharacters(clean.reading, clean.read, confirmed).uncertainCharacters).toEqual([]);
  });

  it('doubts a field whose check digit was read as a letter when one of its glyphs is doubtful', () => {
    // A visa's number whose check digit 7 was read T (made 7 by its class) and whose B was read at 80: the T vouches
    // for little (MRV-B, 9URJWCT9A read QURJWCTIA held with its check digit read T).
    const genuine = composeMrz('MRVB', { ...HOLDER, documentNumber: 'XB3YHM8KN' });
    expect(genuine[1]![9]).toBe('7');
    const read = (checkDigit: string, bConfidence: number) =>
      band([ocrLine(genuine[0]!, 0), ocrLine(genuine[1]!, 60, { 1: [['B', bConfidence]], 9: [[checkDigit, 96]] })]);
    const letterAndDoubt = read('T', 80);
    const reading = readMrz(letterAndDoubt.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: 'XB3YHM8KN', checkDigitRepairs: [], uncertainCharacters: [] });
    expect(withUncertainCharacters(reading, letterAndDoubt).uncertainCharacters).toEqual(['documentNumber']);
    // The check digit read as a digit, or every glyph of the number confident: the check digit is believed.
    const digitAndDoubt = read('7', 80);
    expect(withUncertainCharacters(readMrz(digitAndDoubt.text, NOW)!, digitAndDoubt).uncertainCharacters).toEqual([]);
    const letterAlone = read('T', 97);
    expect(withUncertainCharacters(readMrz(letterAlone.text, NOW)!, letterAlone).uncertainCharacters).toEqual([]);
  });

  it('does not doubt a number for a character read alone as a look-alike when no reading with it holds the check digits', () => {
    // A genuine TD2 number, its B read alone as 8 (3 apart: under weight 7 the check digit moves by 1): nothing holds.
    const genuine = composeMrz('TD2', { ...HOLDER, documentNumber: 'XB3YHM3KN' });
    const { read, reading } = readAsPrinted(genuine);
    expect(reading).toMatchObject({ valid: true, documentNumber: 'XB3YHM3KN' });
    const B_AT = genuine[1]!.indexOf('B');
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, B_AT), '8']])).uncertainCharacters).toEqual([]);
  });

  it('reads alone the MRZ\'s characters, not those of the number printed above it', () => {
    const lines = composeMrz('TD3', { ...HOLDER, documentNumber: 'XG0418916' });
    // The whole page read: the printed number line comes first; the MRZ's G is found where the MRZ line has it.
    const page = band([ocrLine('XPSWEXG0418916', 0), ocrLine(lines[0]!, 100), ocrLine(lines[1]!, 160)]);
    const reading = readMrz(lines.join('\n'), NOW)!;
    const cells = cellsToReadAlone(reading, page);
    expect(cells.map((c) => [c.line, c.index, c.character])).toEqual([...'G0418916'].map((c, k) => [1, k + 1, c]));
    for (const cell of cells) expect(cell.box).toEqual(page.lines[2]!.symbols![cell.index]!.box);
    expect(withUncertainCharacters(reading, page, new Map([[placeKey(1, 1), '6']])).uncertainCharacters).toEqual(['documentNumber']);
  });

  it('reads alone the letters with a look-alike of the other checked fields too (a G for 6 in a personal number)', () => {
    const lines = composeMrz('TD3', { ...HOLDER, documentNumber: 'XKENHMEX3', personalNumber: 'AB6CD1234' });
    const SIX_AT = lines[1]!.indexOf('AB6CD') + 2;
    const read = band([ocrLine(lines[0]!, 0), ocrLine(lines[1]!, 60, { [SIX_AT]: [['G', 96]] })]);
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, personalNumber: 'ABGCD1234', checkDigitRepairs: [], uncertainCharacters: [] });
    // The personal number's letters alone, each among its look-alikes; not its digits (outside the number), nor the
    // number's own (none with a look-alike here).
    const at = (k: number) => SIX_AT - 2 + k;
    expect(cellsToReadAlone(reading, read)).toEqual(
      (
        [
          [0, 'A', ['4']],
          [1, 'B', ['8']],
          [2, 'G', ['6']],
          [4, 'D', ['0']],
        ] as const
      ).map(([k, character, partners]) => ({ line: 1, index: at(k), character, partners, box: read.lines[1]!.symbols![at(k)]!.box })),
    );
    expect(withUncertainCharacters(reading, read).uncertainCharacters).toEqual([]);
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, SIX_AT), '6']])).uncertainCharacters).toEqual(['personalNumber']);
    expect(withUncertainCharacters(reading, read, new Map([[placeKey(1, SIX_AT), 'G']])).uncertainCharacters).toEqual([]);
    // A repaired field is in review already: nothing of it is read alone.
    expect(cellsToReadAlone({ ...reading, checkDigitRepairs: ['personalNumber'] }, read)).toEqual([]);
  });

  it('reads alone only the first filler of a short number', () => {
    const lines = composeMrz('TD1', { ...HOLDER, documentNumber: 'XKHM3' });
    const { read, reading } = readAsPrinted(lines);
    expect(reading).toMatchObject({ valid: true, documentNumber: 'XKHM3' });
    const start = lines[0]!.indexOf('XKHM3');
    const number = cellsToReadAlone(reading, read).filter((cell) => cell.line === 0 && cell.index < start + 9);
    expect(number.map((cell) => [cell.index - start, cell.character, cell.partners])).toEqual([[5, '<', ['K']]]);
  });

  it('doubts a personal number whose two confident look-alikes cancel in its check digit and the composite', () => {
    // 83784131 read 83T8A131: T for 7 under weight 1 and A for 4 under weight 3 (22 + 18); the personal number starts
    // the composite's fourth group of three, so the composite weighs it as its own check digit does.
    const genuine = composeMrz('TD3', { ...HOLDER, documentNumber: 'XKHMRNWX3', personalNumber: '83784131' });
    const start = genuine[1]!.indexOf('83784131');
    const misread = [genuine[0]!, genuine[1]!.replace('83784131', '83T8A131')];
    const read = band(misread.map((text, m) => ocrLine(text, 60 * m, Object.fromEntries([...text].map((c, i) => [i, [[c, 99]]])))));
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, personalNumber: '83T8A131', checkDigitRepairs: [], uncertainCharacters: [] });
    expect(withUncertainCharacters(reading, read).uncertainCharacters).toEqual([]);
    // T and A are read alone, among T, 7 and 1, and A and 4.
    const cells = cellsToReadAlone(reading, read).filter((cell) => cell.index >= start && cell.index < start + 8);
    expect(cells.map((cell) => [cell.index - start, cell.character, [...cell.partners].sort()])).toEqual([
      [2, 'T', ['1', '7']],
      [4, 'A', ['4']],
    ]);
    const alone = new Map([
      [placeKey(1, start + 2), '7'],
      [placeKey(1, start + 4), '4'],
    ]);
    expect(withUncertainCharacters(reading, read, alone).uncertainCharacters).toEqual(['personalNumber']);
  });

  it('doubts a visa\'s date whose letters made digits could stand for other digits with its check digit holding', () => {
    // Birth 990315 read OO0315: O as 0 twice holds the date's check digit (9 under weights 7 and 3), and a visa has no
    // composite: read as 2000-03-15, a plain correction until the round-11 review.
    const printed = composeMrz('MRVB', { ...HOLDER, documentNumber: 'XKHMRNWX3', birthDate: '990315' });
    const misread = [printed[0]!, printed[1]!.replace('990315', 'OO0315')];
    const read = band(misread.map((text, m) => ocrLine(text, 60 * m, Object.fromEntries([...text].map((c, i) => [i, [[c, 99]]])))));
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, birthDate: '2000-03-15', corrections: ['birthDate'], checkDigitRepairs: [] });
    expect(withUncertainCharacters(reading, read).uncertainCharacters).toEqual(['birthDate']);
    // One O, as 0: a 9 there moves the check digit (9 × 7), nothing else holds.
    const once = composeMrz('MRVB', { ...HOLDER, documentNumber: 'XKHMRNWX3', birthDate: '900315' });
    const onceRead = band([once[0]!, once[1]!.replace('900315', '9O0315')].map((text, m) => ocrLine(text, 60 * m)));
    const onceReading = readMrz(onceRead.text, NOW)!;
    expect(onceReading).toMatchObject({ valid: true, birthDate: '1990-03-15', corrections: ['birthDate'] });
    expect(withUncertainCharacters(onceReading, onceRead).uncertainCharacters).toEqual([]);
  });

  it('doubts a number whose three confident look-alikes cancel in every check digit when read alone as printed', () => {
    // K010281W5 read K01OZB1W5: 0 as O under weight 7 (168), 2 as Z under weight 3 (99), 8 as B under weight 1 (3):
    // no one or two of the line's characters' look-alikes hold, all three do (270); each read alone as printed.
    const printed = 'K010281W5';
    const asRead = 'K01OZB1W5';
    const genuine = composeMrz('TD3', { ...HOLDER, documentNumber: printed });
    const misread = [genuine[0]!, genuine[1]!.replace(printed, asRead)];
    const read = band(misread.map((text, m) => ocrLine(text, 60 * m, Object.fromEntries([...text].map((c, i) => [i, [[c, 99]]])))));
    const reading = readMrz(read.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: asRead, checkDigitRepairs: [], uncertainCharacters: [] });
    const swapped = [...asRead].flatMap((c, i) => (c !== printed[i] ? [i] : []));
    expect(swapped).toHaveLength(3);
    const alone = (indexes: number[]) => new Map(indexes.map((i) => [placeKey(1, i), printed[i]!] as const));
    expect(withUncertainCharacters(reading, read, alone(swapped)).uncertainCharacters).toEqual(['documentNumber']);
    // Two of the three read alone as printed hold nothing: believed.
    expect(withUncertainCharacters(reading, read, alone(swapped.slice(0, 2))).uncertainCharacters).toEqual([]);
  });

  it('believes a confident G or 6, and a doubtful character that a check digit does see', () => {
    const confident = readAs('6', 97);
    expect(withUncertainCharacters(readMrz(confident.text, NOW)!, confident).uncertainCharacters).toEqual([]);
    const confidentG = readAs('G', 97);
    expect(withUncertainCharacters(readMrz(confidentG.text, NOW)!, confidentG).uncertainCharacters).toEqual([]);
    const seen = band([ocrLine(visa[0]!, 0), ocrLine(visa[1]!, 60, { [visa[1]!.indexOf('T')]: [['T', 40]] })]);
    expect(withUncertainCharacters(readMrz(seen.text, NOW)!, seen).uncertainCharacters).toEqual([]);
  });
});

describe('the OCR line an MRZ line came from', () => {
  it("finds a short name's line whose filler tail OCR-B made letters, longer than the data line, and not the data line", () => {
    // As tesseract read an OCR-B TD3 (round 14, dev seed 4637): `<<` read `K<K`, the tail `<` as K and L, 56 glyphs.
    const reading = 'P<SWETANAKAK<KKENJI<<<<<<<<<<<<<<<<<<<<<<<<<';
    const name = 'P<SWETANAKAK<KKENJI<<KKKLKLLKLKLKLKLKLKLKLLKLKLKLKLKLKKKL';
    const data = 'XA41862752SWE7408122F3403152<<<<<<<<<LKLK4';
    // Fewer edits turn the reading into the data line, but the name line holds most of its characters.
    expect(alignedSourceLines([reading], ['SPECIMENAUTHORITY', name, data], 0.5)).toEqual([1]);
    // A tail of K and L counts as fillers read; other letters do not.
    const shortName = 'P<SWEOKAFOR<<KOLGA<<<<<<<<<<<<<<<<<<<<<<<<<<';
    expect(alignedSourceLines([shortName], ['P<SWEOKAFOR<<KOLGAKKLLLLLLLLLLLLLLLLLLLLKKLKKL'], 0.5)).toEqual([0]);
    expect(alignedSourceLines([shortName], ['P<SWEOKAFOR<<KOLGAMMNNNNNNNNNNNNNNNNNNNNMMNMMN'], 0.5)).toEqual([null]);
    // TD1 under OCR-B, a valid reading: the first line's fillers read with K, L and S among them and glyphs to spare,
    // the name line's tail partly lost. Counting K/L/C/S as fillers, the first line holds more of the name line (its
    // filler tail) than the name line does; the name's own letters say where it was read.
    const td1 = ['I<DEUSL29KC4L74<<<<<<<<<<<<<<<', '6408125M3102282DEUK<<<<<<<<<<0', 'LI<<LI<<<<<<<<<<<<<<<<<<<<<<<<'];
    const td1Read = ['I<DEUSL29KC4L74<<LK<<<<K<S<LK<<<', '6408125M3102282DEUK<<<<S<<<<<0', 'LI<<LI<<<<<LK<K<<<<KL<S'];
    expect(alignedSourceLines(td1, td1Read, 0.5)).toEqual([0, 1, 2]);
  });
});

describe('a check digit\'s cell from the characters\' boxes', () => {
  it('keeps the cell where the glyphs are when the line box is stretched or the line lost its last glyph', () => {
    const td3 = composeMrz('TD3', HOLDER);
    const name = ocrLine(td3[0]!, 0);
    // The data line lost its composite (the last glyph), and its line box runs over a speck of noise to the right.
    const data = ocrLine(td3[1]!.slice(0, 43), 60);
    const read = band([name, { ...data, box: { ...data.box, x1: data.box.x1 + 200 } }]);
    const box = cellBox(read, td3, 1, 43, 0)!;
    // The name line's characters span 13 to 1327: 44 cells of 1314 / 44 from 13 (its glyph at 1303–1327).
    expect(box.x0).toBeCloseTo(13 + (43 * 1314) / 44, 5);
    expect(box.x1 - box.x0).toBeCloseTo(1314 / 44, 5);
    expect(box.y0).toBe(60);
    expect(cellBox(band(td3.map((text, i) => ({ text, box: { x0: 0, y0: 60 * i, x1: 1300, y1: 60 * i + 40 } }))), td3, 1, 43, 0)).toBeNull();
  });
});

describe('every checked field, judged on the MRZ line the OCR read it from', () => {
  /** The OCR's band for `lines` (confidence 95) with the characters at `low` ([line, index]) read at `confidence`. */
  const bandOf = (lines: string[], low: [number, number][], confidence = 60) =>
    band(lines.map((line, m) => ocrLine(line, 60 * m, Object.fromEntries(low.filter(([k]) => k === m).map(([, i]) => [i, [[line[i]!, confidence]]])))));
  /** The reading of `lines` with their character `changed` (first occurrence) read as another, at `confidence`. */
  const flagged = (lines: string[], printed: string, read: string, confidence = 60): MrzReading => {
    const forged = lines.join('\n').replace(printed, read).split('\n');
    const m = forged.findIndex((line) => line.includes(read));
    const low = [...read].flatMap((c, i) => (c !== printed[i] ? [[m, forged[m]!.indexOf(read) + i] as [number, number]] : []));
    const text = bandOf(forged, low, confidence);
    const reading = readMrz(text.text, NOW)!;
    expect(reading, read).toMatchObject({ valid: true, checkDigitRepairs: [] });
    return withUncertainCharacters(reading, text);
  };

  it('tries the look-alikes of every doubtful character: U/0, L/1, S/8, G/6, F/5 on every format', () => {
    const pairs = [['X00418916', 'XU0418916'], ['1X0418916', 'LX0418916'], ['X80418916', 'XS0418916'], ['X60418916', 'XG0418916'], ['X50418916', 'XF0418916']];
    for (const [printed, read] of pairs) {
      expect(mrzCheckDigit(read!)).toBe(mrzCheckDigit(printed!));
      for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB'] as const) {
        const lines = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: printed! });
        expect(flagged(lines, printed!, read!).uncertainCharacters, `${format} ${read}`).toEqual(['documentNumber']);
        expect(flagged(lines, printed!, read!, 97).uncertainCharacters, `${format} ${read} confident`).toEqual([]);
      }
    }
  });

  it('finds two doubtful characters whose shifts cancel: B for 8 under weights 3 and 7', () => {
    // Generated TD3 (seed 3187, shadow): S8F86T0EF read SBFB6T0EF.
    expect(mrzCheckDigit('SBFB6T0EF')).toBe(mrzCheckDigit('S8F86T0EF'));
    for (const format of ['TD3', 'TD1', 'MRVB'] as const) {
      const lines = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'S8F86T0EF' });
      expect(flagged(lines, 'S8F86T0EF', 'SBFB6T0EF').uncertainCharacters, format).toEqual(['documentNumber']);
      expect(flagged(lines, 'S8F86T0EF', 'SBFB6T0EF', 97).uncertainCharacters, format).toEqual([]);
    }
  });

  it('doubts a doubled character read twice as its look-alike under weights 7 and 3, however confidently', () => {
    // Generated MRV-A (round 10, seed 6067, shear): J7V77XN28 read J7VTTXN28, a plain read with the wrong number.
    expect(mrzCheckDigit('J7VTTXN28')).toBe(mrzCheckDigit('J7V77XN28'));
    for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB'] as const) {
      const lines = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'J7V77XN28' });
      expect(flagged(lines, 'J7V77XN28', 'J7VTTXN28', 99).uncertainCharacters, format).toEqual(['documentNumber']);
      // A doubled letter under weights 3 and 1: the two shifts do not cancel, the check digits see them, nothing is doubted.
      const seen = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'JTTV7XN28' });
      expect(flagged(seen, 'JTTV7XN28', 'JTTV7XN28', 99).uncertainCharacters, format).toEqual([]);
      // Doubled digits are not doubted: French card and personal numbers are full of them.
      const digits = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'J7V77XN28' });
      expect(flagged(digits, 'J7V77XN28', 'J7V77XN28', 99).uncertainCharacters, format).toEqual([]);
    }
  });

  it('covers a TD1 number running on into the optional field, and the TD3 personal number', () => {
    const number = 'D23145G90734';
    const line0 = `I<UTO${number.slice(0, 9)}<${number.slice(9)}${mrzCheckDigit(number)}${'<'.repeat(11)}`;
    const line1 = '7408122F1204159UTO<<<<<<<<<<<';
    const td1 = [line0, line1 + mrzCheckDigit(line0.slice(5) + line1.slice(0, 7) + line1.slice(8, 15) + line1.slice(18, 29)), 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const long = bandOf(td1, [[0, 11]]);
    const reading = readMrz(long.text, NOW)!;
    expect(reading).toMatchObject({ valid: true, documentNumber: number, checkDigitRepairs: [] });
    expect(withUncertainCharacters(reading, long).uncertainCharacters).toEqual(['documentNumber']);
    const sure = bandOf(td1, []);
    expect(withUncertainCharacters(readMrz(sure.text, NOW)!, sure).uncertainCharacters).toEqual([]);
    const td3 = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'XA4186275', personalNumber: 'AB6CD1234' });
    expect(flagged(td3, 'AB6CD1234', 'ABGCD1234').uncertainCharacters).toEqual(['personalNumber']);
  });

  it('tries P for F (25 and 15) on every format', () => {
    expect(mrzCheckDigit('XP0418916')).toBe(mrzCheckDigit('XF0418916'));
    for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB'] as const) {
      const lines = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'XF0418916' });
      expect(flagged(lines, 'XF0418916', 'XP0418916').uncertainCharacters, format).toEqual(['documentNumber']);
      expect(flagged(lines, 'XF0418916', 'XP0418916', 97).uncertainCharacters, format).toEqual([]);
    }
  });

  it('doubts a K where a field meets its padding however confidently read, and a doubtful first filler (K 20, < 0)', () => {
    expect(mrzCheckDigit('AB123456K')).toBe(mrzCheckDigit('AB123456<'));
    for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB'] as const) {
      const short = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'AB123456' });
      // The padding filler read as K: at 95 as at 60 (the OCR reads fillers as K confidently).
      expect(flagged(short, 'AB123456<', 'AB123456K', 95).uncertainCharacters, `${format} K 95`).toEqual(['documentNumber']);
      expect(flagged(short, 'AB123456<', 'AB123456K').uncertainCharacters, `${format} K 60`).toEqual(['documentNumber']);
      const sure = bandOf(short, []);
      expect(withUncertainCharacters(readMrz(sure.text, NOW)!, sure).uncertainCharacters, `${format} clean`).toEqual([]);
      // The other way: a printed final K read as a filler, doubtfully; a confident filler is believed.
      const withK = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'AB123456K' });
      expect(flagged(withK, 'AB123456K', 'AB123456<').uncertainCharacters, `${format} < 60`).toEqual(['documentNumber']);
      expect(flagged(withK, 'AB123456K', 'AB123456<', 97).uncertainCharacters, `${format} < 97`).toEqual([]);
    }
    // A confident K inside a field, away from its padding, is no filler.
    const inner = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'AK1234567' });
    const innerRead = bandOf(inner, []);
    expect(withUncertainCharacters(readMrz(innerRead.text, NOW)!, innerRead).uncertainCharacters).toEqual([]);
    // The TD3 personal number and the TD1 optional fields.
    const td3 = composeMrz('TD3', { ...SPECIMEN_HOLDER, personalNumber: 'AB12' });
    expect(flagged(td3, 'AB12<', 'AB12K', 95).uncertainCharacters).toEqual(['personalNumber']);
    const td1 = composeMrz('TD1', SPECIMEN_HOLDER);
    expect(flagged(td1, 'XA41862752<', 'XA41862752K', 95).uncertainCharacters).toEqual(['optional1']);
    const optional2 = td1.map((line, m) => (m === 1 ? line.slice(0, 18) + 'K' + line.slice(19) : line));
    const optional2Read = bandOf(optional2, []);
    const optional2Reading = readMrz(optional2Read.text, NOW)!;
    expect(optional2Reading).toMatchObject({ valid: true, checkDigitRepairs: [] });
    expect(withUncertainCharacters(optional2Reading, optional2Read).uncertainCharacters).toEqual(['optional2']);
  });

  it('finds the OCR line of an MRZ line that has a speck read before its first character', () => {
    const visa = composeMrz('MRVB', { ...SPECIMEN_HOLDER, documentNumber: 'XG0418916' });
    const speck = (line: BandText['lines'][number]): BandText['lines'][number] => ({
      ...line,
      text: `.${line.text}`,
      symbols: [{ text: '.', confidence: 30, box: { x0: 0, y0: line.box.y0, x1: 4, y1: line.box.y1 } }, ...line.symbols!],
    });
    const clean = band([ocrLine(visa[0]!, 0), speck(ocrLine(visa[1]!, 60))]);
    const reading = readMrz(visa.join('\n'), NOW)!;
    // Every character keeps its confidence: a clean, confident number is not sent to review.
    expect(withUncertainCharacters(reading, clean).uncertainCharacters).toEqual([]);
    const doubtful = band([ocrLine(visa[0]!, 0), speck(ocrLine(visa[1]!, 60, { 1: [['G', 60]] }))]);
    expect(withUncertainCharacters(reading, doubtful).uncertainCharacters).toEqual(['documentNumber']);
    expect(alignedSourceLines(['XG0418916<<'], ['.XG0418916<<', 'PASSPORT XG0418916'], 0.5)).toEqual([0]);
    expect(alignedSourceLines(['XG0418916<<'], ['PASSPORT'], 0.5)).toEqual([null]);
  });

  it('looks at the MRZ line, not at the number printed above it', () => {
    const lines = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'X60418916' }).join('\n').replace('X60418916', 'XG0418916').split('\n');
    // The whole page read: the printed number line comes first, every character confident; the MRZ's G at 60.
    const page = band([ocrLine('XPSWEXG0418916', 0, {}), ocrLine(lines[0]!, 100), ocrLine(lines[1]!, 160, { 1: [['G', 60]] })]);
    const reading = readMrz(lines.join('\n'), NOW)!;
    expect(withUncertainCharacters(reading, page).uncertainCharacters).toEqual(['documentNumber']);
  });

  it('takes a character with no confidence for a doubtful one, unless its field is a repair already', () => {
    const lines = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'XG0418916' });
    const reading = readMrz(lines.join('\n'), NOW)!;
    const bare = band(lines.map((text, m) => ({ ...ocrLine(text, 60 * m), symbols: undefined })));
    expect(withUncertainCharacters(reading, bare).uncertainCharacters).toEqual(['documentNumber']);
    // The number's G dropped from the OCR's characters: its place has no confidence.
    const full = ocrLine(lines[1]!, 60);
    const dropped = band([ocrLine(lines[0]!, 0), { ...full, symbols: full.symbols!.filter((_, i) => i !== 1) }]);
    expect(withUncertainCharacters(reading, dropped).uncertainCharacters).toEqual(['documentNumber']);
    const repaired = { ...reading, checkDigitRepairs: ['documentNumber'] };
    expect(withUncertainCharacters(repaired, bare).uncertainCharacters).toEqual([]);
  });

  it('places the characters of a line whose filler run the OCR read as one', () => {
    const placed = alignCharacters('AB<<<<C1', ['A', 'B', '<', 'C', '1']);
    expect(placed.slice(0, 2)).toEqual([0, 1]);
    expect(placed.slice(2, 6).sort()).toEqual([2, null, null, null]);
    expect(placed.slice(6)).toEqual([3, 4]);
    expect(alignCharacters('XG04', ['X', '6', '0', '4'])).toEqual([0, 1, 2, 3]);
    expect(sourceLines(['XG0418916<<'], ['PASSPORT XG0418916', 'XG0418916<<'], 0.5)).toEqual([1]);
    expect(sourceLines(['XG0418916<<'], ['PASSPORT'], 0.5)).toEqual([null]);
  });
});
