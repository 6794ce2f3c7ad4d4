// MRZ lines rebuilt from the OCR's character boxes (mrz-cells.ts): OCR lines as tesseract gives them for a TD1 card,
// with the faults it makes on the generated set (a glyph split in two, a run of fillers read as one wide filler).
import { describe, expect, it } from 'vitest';
import { composeMrz, composeTd1, type PassportHolder } from '../../scripts/make-kyc-specimen.ts';
import { readMrz } from '../../src/kyc/mrz.ts';
import { cellBox, cellLines, checkBlindCells, MIN_CHECK_BLIND_CONFIDENCE, readMrzByCells, withUncertainCharacters } from '../../src/kyc/mrz-cells.ts';
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
    // The number's G, and its box in the pass, for reading it alone.
    expect(checkBlindCells(reading, read)).toEqual([{ index: 7, character: 'G', box: read.lines[1]!.symbols![SIX_AT]!.box }]);
    expect(withUncertainCharacters(reading, read).uncertainCharacters).toEqual([]);
    expect(withUncertainCharacters(reading, read, new Map([[7, '6']])).uncertainCharacters).toEqual(['documentNumber']);
    // Alone it reads as read, or as nothing: believed.
    expect(withUncertainCharacters(reading, read, new Map([[7, 'G']])).uncertainCharacters).toEqual([]);
    expect(withUncertainCharacters(reading, read, new Map([[7, null]])).uncertainCharacters).toEqual([]);
    // A number without G, 6, F, 5, S or 8 has nothing to read alone.
    expect(checkBlindCells(readMrz(composeMrz('MRVB', { ...HOLDER, documentNumber: 'ZKENUAEXE' }).join('\n'), NOW)!, read)).toEqual([]);
  });

  it('believes a confident G or 6, and a doubtful character that a check digit does see', () => {
    const confident = readAs('6', 97);
    expect(withUncertainCharacters(readMrz(confident.text, NOW)!, confident).uncertainCharacters).toEqual([]);
    const seen = band([ocrLine(visa[0]!, 0), ocrLine(visa[1]!, 60, { [visa[1]!.indexOf('T')]: [['T', 40]] })]);
    expect(withUncertainCharacters(readMrz(seen.text, NOW)!, seen).uncertainCharacters).toEqual([]);
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
