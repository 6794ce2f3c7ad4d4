import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composeMrz, composeTd1, composeTd3, renderDocument, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import type { RawPixels } from '../../src/kyc/intake.ts';
import { seededRandom } from '../../src/kya/training/dataset.ts';
import { hammingDistance } from '../../src/kyc/hash.ts';
import { characterBox, readApplicantMrz, readMrzFromImage } from '../../src/kyc/analyse.ts';
import type { BandText, Box, OcrEngine, OcrSymbol } from '../../src/kyc/ocr.ts';
import {
  mrzCheckDigit,
  mrzDate,
  readMrz,
  repairFillers,
  repairStateCode,
  unreadCheckDigits,
  withRereadCheckDigits,
  type MrzFormat,
} from '../../src/kyc/mrz.ts';
import { compareNames, findNameInText } from '../../src/kyc/names.ts';
import { linesEngine, onTable, passportInLargePhoto } from './images.ts';
import { findAddress, findDates, latestPastDate } from '../../src/kyc/text-document.ts';

const NOW = new Date('2026-06-01T12:00:00Z');

/** ICAO 9303 specimens (Doc 9303 parts 4–7) and a French identity card sample. */
const SPECIMENS: [MrzFormat, string[], string][] = [
  ['TD3', ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], 'L898902C3'],
  ['TD2', ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'], 'D23145890'],
  ['TD1', ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'], 'D23145890'],
  ['MRVA', ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'], 'L8988901C'],
  ['MRVB', ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'], 'L8988901C'],
  ['FRA_ID', ['IDFRADOUEL<<<<<<<<<<<<<<<<<<<<932013', '0506932020438CHRISTIANE<<NI2906209F3'], '050693202043'],
];

const range = (line: number, start: number, end: number): [number, number][] =>
  Array.from({ length: end - start }, (_, k) => [line, start + k]);
/** Dates and check digits: digit-only positions. */
const DIGIT_POSITIONS: Record<MrzFormat, [number, number][]> = {
  TD3: [[1, 9], ...range(1, 13, 20), ...range(1, 21, 28), [1, 42], [1, 43]],
  MRVA: [[1, 9], ...range(1, 13, 20), ...range(1, 21, 28)],
  TD2: [[1, 9], ...range(1, 13, 20), ...range(1, 21, 28), [1, 35]],
  MRVB: [[1, 9], ...range(1, 13, 20), ...range(1, 21, 28)],
  TD1: [[0, 14], ...range(1, 0, 7), ...range(1, 8, 15), [1, 29]],
  FRA_ID: [[1, 12], ...range(1, 27, 34), [1, 35]],
};
/** Positions no check digit covers. */
const UNCHECKED: Record<MrzFormat, (line: number, index: number) => boolean> = {
  TD3: (line, index) => line === 0 || (index >= 10 && index < 13) || index === 20,
  TD2: (line, index) => line === 0 || (index >= 10 && index < 13) || index === 20,
  MRVA: (line, index) => line === 0 || (index >= 10 && index < 13) || index === 20 || index >= 28,
  MRVB: (line, index) => line === 0 || (index >= 10 && index < 13) || index === 20 || index >= 28,
  TD1: (line, index) => (line === 0 && index < 5) || (line === 1 && (index === 7 || (index >= 15 && index < 18))) || line === 2,
  FRA_ID: () => false,
};
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
const charValue = (c: string) => Number(mrzCheckDigit(c)) * 7 % 10;

const LOOK_ALIKE: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '8': 'B', '6': 'G' };

/** What OCR does to an MRZ line: letters for digits in digit fields, fillers read as K/L/C, a filler more or less. */
function degrade(line: string, digitPositions: number[], random: () => number): string {
  const chars = [...line];
  const position = digitPositions[Math.floor(random() * digitPositions.length)];
  if (position !== undefined && LOOK_ALIKE[chars[position]!] && random() < 0.7) chars[position] = LOOK_ALIKE[chars[position]!]!;
  let text = chars.join('');
  const tail = text.match(/<{6,}$/);
  if (tail && random() < 0.5) {
    const at = text.length - tail[0].length + 3 + Math.floor(random() * (tail[0].length - 4));
    text = text.slice(0, at) + 'KLC'[Math.floor(random() * 3)] + text.slice(at + 1);
  }
  if (tail && random() < 0.5) text = random() < 0.5 ? text + '<<' : text.slice(0, -1);
  return text;
}


describe('MRZ reading', () => {
  it('finds and verifies a TD3 MRZ amid other OCR lines', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const reading = readMrz(`PASSPORT SPECIMEN\nSURNAME ERIKSSON\n${l1}\n${l2}\n`, NOW);
    expect(reading).toMatchObject({
      format: 'TD3',
      valid: true,
      invalidFields: [],
      documentCode: 'P',
      issuingState: 'SWE',
      documentNumber: 'XA4186275',
      lastName: 'ERIKSSON',
      firstName: 'ANNA MARIA',
      birthDate: '1974-08-12',
      expiryDate: '2034-03-15',
    });
  });

  it('tolerates OCR spacing, « for <, and a miscounted filler run', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const noisy = `${l1.replace('<<<<<<', '<<<<<<<<').replace('<<', '«')}\n${l2.slice(0, 10)} ${l2.slice(10, 40)}${l2.slice(42)}`;
    const reading = readMrz(noisy, NOW);
    expect(reading?.valid).toBe(true);
    expect(reading?.lastName).toBe('ERIKSSON');
  });

  it('names every check digit that does not match', () => {
    const [l1, l2] = composeTd3(SPECIMEN_HOLDER);
    const badDocDigit = `${l2.slice(0, 9)}${(Number(l2[9]) + 1) % 10}${l2.slice(10)}`;
    const reading = readMrz(`${l1}\n${badDocDigit}`, NOW);
    expect(reading?.valid).toBe(false);
    expect(reading?.invalidFields).toEqual(expect.arrayContaining(['documentNumberCheckDigit', 'compositeCheckDigit']));
  });

  it('reads TD1 identity cards', () => {
    const td1 = ['I<UTOD23145890<1233<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const reading = readMrz(td1.join('\n'), NOW);
    expect(reading?.format).toBe('TD1');
    expect(reading?.birthDate).toBe('1974-08-12');
    expect(reading?.expiryDate).toBe('2012-04-15');
  });

  it('reads every ICAO document type and the French identity card', () => {
    for (const [format, lines, documentNumber] of SPECIMENS) {
      const reading = readMrz(lines.join('\n'), NOW);
      expect(reading, format).toMatchObject({ format, valid: true, invalidFields: [], corrections: [], documentNumber });
    }
  });

  it('accepts ICAO specimen and special state codes, marking UTO as a specimen', () => {
    const [, utopia] = SPECIMENS.find(([format]) => format === 'TD3')!;
    expect(readMrz(utopia.join('\n'), NOW)).toMatchObject({ valid: true, specimen: true, issuingState: 'UTO' });
    const german = ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4'];
    expect(readMrz(german.join('\n'), NOW)).toMatchObject({ valid: true, specimen: false, issuingState: 'D', nationality: 'D' });
    const unknownState = ['P<QQQMUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X00T478QQQ6408125F2702283<<<<<<<<<<<<<<<4'];
    expect(readMrz(unknownState.join('\n'), NOW)?.invalidFields).toEqual(['issuingState', 'nationality']);
  });

  it('reads a TD1 document number that runs on into the optional data', () => {
    const reading = readMrz(['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'].join('\n'), NOW);
    expect(reading).toMatchObject({ valid: true, documentNumber: 'D23145890734', lastName: 'STEVENSON', firstName: 'PETER JOHN' });
  });

  it('repairs fillers read as K, L, C or S without eating name letters', () => {
    const noisyName = 'ERIKSSON<<ANNA<MARIA<<<<<LK<<<<<<KL<<<C';
    expect(repairFillers(noisyName)).toBe('ERIKSSON<<ANNA<MARIA'.padEnd(noisyName.length, '<'));
    expect(repairFillers('SMITH<<KARL<<<<')).toBe('SMITH<<KARL<<<<');
    expect(repairFillers('PAUL<<<<<<')).toBe('PAUL<<<<<<');
    const noisy = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<LK<<<<<<<<KL<<<<CC<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10';
    expect(readMrz(noisy, NOW)).toMatchObject({ valid: true, lastName: 'ERIKSSON', firstName: 'ANNA MARIA', corrections: [] });
  });

  it("reads lines OCR-B's '<' lengthened (read as two glyphs, K and L) by as many characters as were fillers", () => {
    // Seed 5381 (round 12), an OCR-B TD3 read plainly: 62 and 47 characters, beyond the name and data lines' slack.
    const printed = composeTd3({ ...SPECIMEN_HOLDER, surname: 'TANAKA', givenNames: 'BRIDGET', documentNumber: 'LWH46LTGB', personalNumber: '21183206' });
    const name = 'P<DEUTANAKA<<BRIDGET<<K<KKLKLKKLLLKLLKLKLLLKLKLKLKLKLKKLKKLK';
    const data = `${printed[1]!.slice(0, 36)}<<<<<K<K<${printed[1]!.slice(-2)}`;
    expect(name.length - 44).toBeGreaterThan(10);
    expect(data.length - 44).toBeGreaterThan(2);
    expect(readMrz(`${name}\n${data}`, NOW)).toMatchObject({ format: 'TD3', valid: true, documentNumber: 'LWH46LTGB', lastName: 'TANAKA', firstName: 'BRIDGET' });
    // A TD1 line whose eleven fillers came out as K and L with no '<' at all (seed 5381, OCR-B, rotated 180°).
    const td1 = composeMrz('TD1', { ...SPECIMEN_HOLDER, issuingState: 'BRA', nationality: 'BRA', documentNumber: 'V6NP0FXRY', birthDate: '600309', expiryDate: '290927', sex: 'F', surname: 'ODONNELL', givenNames: 'CHIDI' });
    expect(repairFillers(`${td1[1]!.slice(0, 18)}KLKLKLKLLLLLKLKL${td1[1]!.slice(-1)}`)).toBe(`${td1[1]!.slice(0, 18)}${'<'.repeat(16)}${td1[1]!.slice(-1)}`);
    const noisyTd1 = [td1[0], `${td1[1]!.slice(0, 18)}KLKLKLKLLLLLKLKL${td1[1]!.slice(-1)}`, 'ODONNELL<<CHIDI<K<KKKLKKLKLKLLKLKKKLKKL'].join('\n');
    expect(readMrz(noisyTd1, NOW)).toMatchObject({ format: 'TD1', valid: true, documentNumber: 'V6NP0FXRY', lastName: 'ODONNELL', firstName: 'CHIDI' });
    // Fewer than six, or one letter only, are letters: a name, or a number whose check digit tells.
    expect(repairFillers('SMITH<<KLLKA<<<<')).toBe('SMITH<<KLLKA<<<<');
    expect(repairFillers('LLLLLLL<<<')).toBe('LLLLLLL<<<');
    // As long, but not from fillers read as letters: still too long for a TD3 name line.
    expect(readMrz(`P<DEUTANAKA<<BRIDGET<<${'<'.repeat(40)}\n${printed[1]}`, NOW)).toBeNull();
  });

  it('never cuts a data line read exactly as long as a longer layout down to a shorter one (a clean TD3 read as a TD2)', () => {
    // A personal number of K and L in turn, read cleanly: the OCR-B stretch rule takes it for fillers, so TD3 fails
    // its personal number check digit, as it should. Cut to 36 as noise, the same line passed as a TD2 (same number
    // and date fields, its one composite holding by chance) with the personal number lost.
    const printed = composeTd3({ ...SPECIMEN_HOLDER, personalNumber: 'KLKLKLKL' });
    expect(printed[1]).toHaveLength(44);
    expect(readMrz(printed.join('\n'), NOW)).toMatchObject({ format: 'TD3', valid: false, invalidFields: expect.arrayContaining(['personalNumberCheckDigit']) });
  });

  it("takes a K between a filler run and a check digit for OCR-B's last '<' read as `<K` (K weighs as a filler does)", () => {
    const printed = composeMrz('TD2', { ...SPECIMEN_HOLDER, surname: 'SMITH', givenNames: 'PAUL' });
    const noisy = printed[1]!.replace(/<+/, (run) => '<K'.repeat(run.length));
    expect(noisy.endsWith('<K4')).toBe(true);
    expect(repairFillers(noisy)).toBe(noisy.replace(/K/g, '<'));
    expect(readMrz(`${printed[0]}\n${noisy}`, NOW)).toMatchObject({ format: 'TD2', valid: true, personalNumber: null, lastName: 'SMITH', firstName: 'PAUL' });
    // Before a letter, the K starts the next word, as before.
    expect(repairFillers('SMITH<<KARL<<<<')).toBe('SMITH<<KARL<<<<');
  });

  describe("OCR-B's '<' after the document code read as '<K'", () => {
    const plainlyValid = (reading: ReturnType<typeof readMrz>) =>
      reading !== null && reading.valid && reading.checkDigitRepairs.length === 0 && reading.stateRepairs.length === 0;
    const splitFiller = (line: string) => `${line.slice(0, 2)}K${line.slice(2)}`;

    it('reads the first line without the K, plainly, when K can start no state', () => {
      // Generated TD1 and TD3 (round 18, seed 3319): `I<KNGA…`, `P<KSWE…` read for `I<NGA…`, `P<SWE…`.
      const td1 = composeMrz('TD1', { ...SPECIMEN_HOLDER, issuingState: 'NGA', nationality: 'NGA', documentNumber: 'XTULDLBGW', personalNumber: '15476914' });
      const reading = readMrz([splitFiller(td1[0]!), ...td1.slice(1)].join('\n'), NOW);
      expect(reading).toMatchObject({ format: 'TD1', valid: true, lines: td1, documentNumber: 'XTULDLBGW', issuingState: 'NGA', checkDigitRepairs: [], stateRepairs: [] });
      const td3 = composeMrz('TD3', SPECIMEN_HOLDER);
      expect(readMrz([splitFiller(td3[0]!), td3[1]].join('\n'), NOW)).toMatchObject({ format: 'TD3', valid: true, lines: td3, issuingState: 'SWE', lastName: 'ERIKSSON', stateRepairs: [] });
    });

    it('sends it to review when K could start the state, or the line without the K lost a character', () => {
      // Round 18, seed 3319, shear: printed I<IRLHZ8DVXT42696384124, read with the K: KIR is a state, and a reading
      // keeping the K, its number shifted (LHZBDVXT4, holding its check digit by chance) and a digit of the optional
      // data dropped where the composite held, passed with no repair.
      const shear = ['I<KIRLHZBDVXT42696384124<<<<<<<', '7010022F3201244IRL<<<<<<<<<<<3', 'ODONNELL<<LUCAS<<<<<<<<<<<<<<<'];
      const reading = readMrz(shear.join('\n'), NOW);
      expect(plainlyValid(reading)).toBe(false);
      expect(reading).toMatchObject({ valid: true, documentNumber: 'HZ8DVXT42', issuingState: 'IRL', stateRepairs: ['issuingState'] });
      const [l1, l2, l3] = SPECIMENS.find(([format]) => format === 'TD1')![1];
      expect(readMrz([splitFiller(l1!).slice(0, -1), l2, l3].join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'D23145890', checkDigitRepairs: ['documentNumber'] });
    });

    it('never lets a changed number or birth date, its own check digit recomputed, pass plainly', () => {
      const random = seededRandom(18);
      const set = (line: string, at: number, text: string) => line.slice(0, at) + text + line.slice(at + text.length);
      let tampered = 0;
      for (let n = 0; n < 12; n++) {
        const personalNumber = String(Math.floor(random() * 1e8)).padStart(8, '0');
        const documentNumber = Array.from({ length: 9 }, () => 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'[Math.floor(random() * 33)]).join('');
        const state = ['SWE', 'NGA', 'FRA', 'KEN', 'AZE'][n % 5]!;
        const [l1, l2, l3] = composeMrz('TD1', { ...SPECIMEN_HOLDER, issuingState: state, nationality: state, documentNumber, personalNumber });
        const number = `${documentNumber.slice(0, 8)}${documentNumber[8] === '3' ? '4' : '3'}`;
        const year = String((Number(l2!.slice(0, 2)) + 1) % 100).padStart(2, '0');
        const birth = `${year}${l2!.slice(2, 6)}`;
        for (const lines of [
          [set(set(l1!, 5, number), 14, mrzCheckDigit(number)), l2!, l3!],
          [l1!, set(set(l2!, 0, birth), 6, mrzCheckDigit(birth)), l3!],
        ]) {
          if (readMrz(lines.join('\n'), NOW)?.valid) continue; // the composite cannot tell this change: no reader can
          tampered++;
          const first = splitFiller(lines[0]!);
          // The K alone, with a filler more or less at the end, or with any one other character of the line lost, or
          // a digit added after it (a line one long, cut back in its filler run, shifted the optional data).
          const lost = [...first].map((_, i) => first.slice(0, i) + first.slice(i + 1)).slice(3);
          const added = [...first].map((_, i) => `${first.slice(0, i)}${i % 10}${first.slice(i)}`).slice(3);
          const firsts = [first, first.slice(0, -1), `${first}<`, ...lost, ...added];
          for (const read of firsts) expect(plainlyValid(readMrz([read, lines[1], lines[2]].join('\n'), NOW)), read).toBe(false);
        }
      }
      expect(tampered).toBeGreaterThanOrEqual(10);
    });
  });

  it('takes a TD1 data line a character short or long, fitted in its filler run, for a repair of the optional data it may have shifted', () => {
    // Reviewer's tamper probe (round 18): the number changed and its own check digit recomputed, the composite left;
    // a digit of the personal number lost (padded at the tail) or a filler added in it (cut from the tail): the
    // shifted personal number held the composite by chance and the reading passed plainly.
    const tail = ['5404142F3107210KEN<<<<<<<<<<<3', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const lost = readMrz(['A<KORPUMASZDHY26199154<<<<<<<', ...tail].join('\n'), NOW);
    expect(lost).toMatchObject({ valid: true, lines: ['A<KORPUMASZDHY26199154<<<<<<<<', ...tail] });
    expect(lost!.checkDigitRepairs).toContain('optional1');
    const added = readMrz(['A<KGZD564DF05L0<58859843<<<<<<<', '7803185F2707222AZE<<<<<<<<<<<2', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'].join('\n'), NOW);
    expect(added).toMatchObject({ valid: true });
    expect(added!.checkDigitRepairs).toContain('optional1');
    // With no data in the optional fields, a filler lost or added at the tail shifts nothing a check digit misses.
    const [l1, l2, l3] = composeMrz('TD1', { ...SPECIMEN_HOLDER, personalNumber: '' });
    for (const first of [l1!.slice(0, -1), `${l1}<`]) {
      expect(readMrz([first, l2, l3].join('\n'), NOW)).toMatchObject({ valid: true, lines: [l1, l2, l3], checkDigitRepairs: [], stateRepairs: [] });
    }
  });

  it('takes a letter read in the filler run after the optional data for a filler only as a repair of that data (it may be a stray character with one lost from the data)', () => {
    // Reviewer's tamper probe (round 18, what was left; round 19): the number or the expiry changed and its own check
    // digit recomputed, the composite left; a digit of the personal number lost and a stray K in the tail filler run,
    // so the line has its length. repairFillers took the K for a filler, the shifted personal number held the
    // composite by chance, and the reading passed plainly.
    const tail = ['7408122F3403152SWE<<<<<<<<<<<8', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const changedNumber = readMrz(['I<SWEXA418627631974012<<<K<<<<', ...tail].join('\n'), NOW);
    expect(changedNumber).toMatchObject({ valid: true, documentNumber: 'XA4186276' });
    expect(changedNumber!.checkDigitRepairs).toContain('optional1');
    const changedExpiry = readMrz(['I<SWEXA418627521974812<<<K<<<<', '7408122F3603158SWE<<<<<<<<<<<8', tail[1]].join('\n'), NOW);
    expect(changedExpiry).toMatchObject({ valid: true, expiryDate: '2036-03-15' });
    expect(changedExpiry!.checkDigitRepairs).toContain('optional1');
    // Every format whose optional data only the composite covers (TD1, TD2), every digit of it lost, K, L, C or S in
    // the run: no tampered document passes plainly, and the probe does reach readings the composite holds.
    const plainlyValid = (reading: ReturnType<typeof readMrz>) => reading?.valid === true && reading.checkDigitRepairs.length === 0 && reading.stateRepairs.length === 0;
    let held = 0;
    for (const [format, line, optional] of [['TD1', 0, 15], ['TD2', 1, 28]] as const) {
      for (const personalNumber of ['19740812', '5518', '402913']) {
        const genuine = { ...SPECIMEN_HOLDER, issuingState: 'NGA', nationality: 'NGA', personalNumber };
        const printed = composeMrz(format, genuine);
        const compositeLine = printed.length - 2;
        for (const changed of [{ ...genuine, documentNumber: 'XA4186276' }, { ...genuine, expiryDate: '350315' }]) {
          const lines = composeMrz(format, changed);
          lines[compositeLine] = lines[compositeLine]!.slice(0, -1) + printed[compositeLine]!.slice(-1);
          for (let at = optional; at < optional + personalNumber.length; at++) {
            const lost = lines[line]!.slice(0, at) + lines[line]!.slice(at + 1);
            for (const letter of 'KLCS') {
              for (let place = optional + personalNumber.length + 1; place < lost.length - (line === compositeLine ? 1 : 0); place++) {
                const read = lines.map((l, k) => (k === line ? lost.slice(0, place) + letter + lost.slice(place) : l));
                const reading = readMrz(read.join('\n'), NOW);
                if (reading?.valid) held++;
                expect(plainlyValid(reading), read.join(' / ')).toBe(false);
              }
            }
          }
        }
      }
    }
    expect(held).toBeGreaterThan(0);
    // A filler read as a letter where no data precedes it in the run is no repair; nor is the data read as printed.
    const [l1, l2, l3] = composeMrz('TD1', SPECIMEN_HOLDER);
    expect(readMrz([`${l1!.slice(0, 20)}K${l1!.slice(21)}`, l2, l3].join('\n'), NOW)).toMatchObject({ valid: true, lines: [l1, l2, l3], checkDigitRepairs: [] });
    const withData = composeMrz('TD1', { ...SPECIMEN_HOLDER, personalNumber: '19740812' });
    expect(readMrz(withData.join('\n'), NOW)).toMatchObject({ valid: true, checkDigitRepairs: [] });
  });

  describe("a TD1 composite read as a letter after OCR-B's filler run", () => {
    /** A printed TD1 whose composite is `digit`, its optional data (personal number) chosen for it. */
    const td1WithComposite = (digit: string): string[] => {
      for (let n = 0; ; n++) {
        const lines = composeMrz('TD1', { ...SPECIMEN_HOLDER, personalNumber: String(n).padStart(4, '0') });
        if (lines[1]!.endsWith(digit)) return lines;
      }
    };
    /** Line 2 as tesseract reads OCR-B: the filler run as K and L, the composite as `letter`. */
    const noisyLine2 = (line: string, letter: string) => line.slice(0, 18) + line.slice(18, 29).replace(/</g, (_, at: number) => 'KL'[at % 2]!) + letter;

    it('keeps a composite read as S after the fillers instead of taking it for a filler, and reads it as 5 only as a repair (S stands for 6 and 8 too)', () => {
      const [l1, l2, l3] = td1WithComposite('5');
      const reading = readMrz([l1, noisyLine2(l2!, 'S'), l3].join('\n'), NOW);
      expect(reading).toMatchObject({ format: 'TD1', valid: true, lines: [l1, l2, l3], corrections: [], checkDigitRepairs: ['compositeCheckDigit'] });
    });

    it('takes no letter for the composite when a field repaired by its check digit needs the composite to confirm it', () => {
      const [l1, l2, l3] = td1WithComposite('6');
      const numberWithI = l1!.replace('XA4186275', 'XA4I86275');
      expect(readMrz([numberWithI, l2, l3].join('\n'), NOW)).toMatchObject({ valid: true, checkDigitRepairs: ['documentNumber'] });
      expect(readMrz([numberWithI, noisyLine2(l2!, 'H'), l3].join('\n'), NOW)).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit', 'compositeCheckDigit'] });
    });

    it('reads a composite read as H, Y, E, S, T or K for the one digit OCR-B shows so that holds, as a check-digit repair (review)', () => {
      for (const [letter, digit] of [['H', '6'], ['Y', '8'], ['Y', '9'], ['E', '8'], ['S', '6'], ['S', '8'], ['T', '1'], ['K', '1']] as const) {
        const [l1, l2, l3] = td1WithComposite(digit);
        const reading = readMrz([l1, noisyLine2(l2!, letter), l3].join('\n'), NOW);
        expect(reading, `${letter} for ${digit}`).toMatchObject({ valid: true, lines: [l1, l2, l3], checkDigitRepairs: ['compositeCheckDigit'] });
      }
    });

    it('never takes a letter for a digit it does not stand for, nor a composite read as a digit for another, so a changed field still fails', () => {
      const [l1, l2, l3] = td1WithComposite('6');
      // The composite printed 6 read as Y (8 or 9), or the optional data changed under a composite read as H.
      expect(readMrz([l1, noisyLine2(l2!, 'Y'), l3].join('\n'), NOW)).toMatchObject({ valid: false, invalidFields: ['compositeCheckDigit'] });
      const changed = l2!.slice(0, 18) + 'X' + l2!.slice(19);
      expect(readMrz([l1, noisyLine2(changed, 'H'), l3].join('\n'), NOW)).toMatchObject({ valid: false, invalidFields: ['compositeCheckDigit'] });
      expect(readMrz([l1, noisyLine2(l2!, '8'), l3].join('\n'), NOW)).toMatchObject({ valid: false, invalidFields: ['compositeCheckDigit'] });
    });

    it('takes an L after the filler run for the composite 1 only as a repair: the composite may be lost and the L a filler', () => {
      // The birth month changed (740812 to 740912) and its check digit recomputed, the composite left as printed; OCR
      // lost that composite and read the last filler as L, which as 1 holds the changed data's composite.
      const [l1, l2, l3] = td1WithComposite('7');
      const changed = `7409129${l2!.slice(7, 29)}L`;
      expect(mrzCheckDigit('740912')).toBe('9');
      expect(mrzCheckDigit(l1!.slice(5, 30) + changed.slice(0, 7) + changed.slice(8, 15) + changed.slice(18, 29))).toBe('1');
      expect(readMrz([l1, changed, l3].join('\n'), NOW)).toMatchObject({ valid: true, corrections: [], checkDigitRepairs: ['compositeCheckDigit'] });
    });
  });

  it("takes the first `<K<K` or `<K<` of a name field with no `<<` for OCR-B's `<<` between surname and given names", () => {
    const read = (givenNames: string, separator: string) => {
      const printed = composeTd3({ ...SPECIMEN_HOLDER, surname: 'KOWALSKA', givenNames });
      return readMrz(`${printed[0]!.replace('KOWALSKA<<', `KOWALSKA${separator}`).slice(0, 44)}\n${printed[1]}`, NOW);
    };
    // Seed 5381, OCR-B: `KOWALSKA<K<KKENJI`, `DUBOIS<K<BRIDGET` (a given name's own first K after `<K<` is lost).
    expect(read('KENJI', '<K<K')).toMatchObject({ valid: true, lastName: 'KOWALSKA', firstName: 'KENJI' });
    expect(read('BRIDGET', '<K<')).toMatchObject({ valid: true, lastName: 'KOWALSKA', firstName: 'BRIDGET' });
    // With a `<<` read, a lone K is a name's: a middle initial stays.
    const initial = composeTd3({ ...SPECIMEN_HOLDER, surname: 'SMITH', givenNames: 'JOHN K PAUL' });
    expect(readMrz(initial.join('\n'), NOW)).toMatchObject({ lastName: 'SMITH', firstName: 'JOHN K PAUL' });
  });

  describe("a K standing where the name field's layout expects a filler (OCR-B's '<' read as K, `<K` or `K<`)", () => {
    /** A TD3 of the holder with its name field as read (the data line as printed, so every check digit holds). */
    const read = (surname: string, givenNames: string, nameAsRead: string) => {
      const printed = composeTd3({ ...SPECIMEN_HOLDER, surname, givenNames });
      return readMrz(`${printed[0]!.slice(0, 5)}${nameAsRead.padEnd(39, '<')}\n${printed[1]}`, NOW);
    };

    it('reads the separator `<<` read as `K<K` when the field has no `<<` (dev seed 6607: SILVAK<KSOFIA)', () => {
      expect(read('SILVA', 'SOFIA', 'SILVAK<KSOFIA')).toMatchObject({ valid: true, lastName: 'SILVA', firstName: 'SOFIA' });
      expect(read('OKAFOR', 'LUCAS', 'OKAFORK<KLUCAS')).toMatchObject({ valid: true, lastName: 'OKAFOR', firstName: 'LUCAS' });
    });

    it('reads a lone K between single fillers before the first `<<` as the separator, when tail noise read a later `<<`', () => {
      expect(read('ERIKSSON', 'ANNA', 'ERIKSSON<K<KANNA<<II')).toMatchObject({ lastName: 'ERIKSSON', firstName: 'ANNA II' });
      expect(read('SMITH', 'JOHN', 'SMITH<K<<JOHN')).toMatchObject({ lastName: 'SMITH', firstName: 'JOHN' });
    });

    it('reads letters past three fillers or more after the given names as noise in the filler tail (dev seed 6607: ANNA<KMARIA<<<<II)', () => {
      expect(read('ERIKSSON', 'ANNA MARIA', 'ERIKSSON<<ANNA<MARIA<<<<II<<LLLLLI')).toMatchObject({ lastName: 'ERIKSSON', firstName: 'ANNA MARIA' });
      // The separator read with a third filler is no tail.
      expect(read('SMITH', 'ANNA', 'SMITH<<<ANNA')).toMatchObject({ lastName: 'SMITH', firstName: 'ANNA' });
    });

    it('reads a mixed run of four or more of K, L, C and S glued to the last word before the filler tail as fillers', () => {
      expect(read('SILVA', 'SOFIA', 'SILVA<<SOFIAKCKC')).toMatchObject({ lastName: 'SILVA', firstName: 'SOFIA' });
      expect(read('NGUYEN', 'LI', 'NGUYEN<<LILKLK')).toMatchObject({ lastName: 'NGUYEN', firstName: 'LI' });
    });

    it('keeps the K, L, C and S of real names: KIM, KARL, LI, ERIK, WELLS, HICKS, an initial K', () => {
      expect(read('KIM', 'KARL', 'KIM<<KARL')).toMatchObject({ lastName: 'KIM', firstName: 'KARL' });
      expect(read('LI', 'KENJI', 'LI<<KENJI')).toMatchObject({ lastName: 'LI', firstName: 'KENJI' });
      expect(read('WELLS', 'ERIK', 'WELLS<<ERIK')).toMatchObject({ lastName: 'WELLS', firstName: 'ERIK' });
      expect(read('HICKS', 'JACK', 'HICKS<<JACK')).toMatchObject({ lastName: 'HICKS', firstName: 'JACK' });
      expect(read('KOWALSKA', 'ANNA K MARIA', 'KOWALSKA<<ANNA<K<MARIA')).toMatchObject({ lastName: 'KOWALSKA', firstName: 'ANNA K MARIA' });
      // With a `<<` read, a K glued to a word stays as read: `<<KLUCAS` and `<<KLAUS` look the same.
      expect(read('OKAFOR', 'KLAUS', 'OKAFOR<<KLAUS')).toMatchObject({ lastName: 'OKAFOR', firstName: 'KLAUS' });
      expect(read('MUELLER', 'KARL K', 'MUELLER<<KARL<K<KIM')).toMatchObject({ lastName: 'MUELLER', firstName: 'KARL K KIM' });
    });
  });

  it('resolves look-alikes by field class and check digit, and says so', () => {
    const [l1, l2] = SPECIMENS[0]![1];
    const dateRead = readMrz(`${l1}\n${l2.replace('7408122', '74O8l22'.toUpperCase())}`, NOW);
    expect(dateRead).toMatchObject({ valid: true, birthDate: '1974-08-12', corrections: ['birthDate'] });
    const numberRead = readMrz(`${l1}\n${l2.replace('L898902C3', 'L8989O2C3')}`, NOW);
    expect(numberRead).toMatchObject({ valid: true, documentNumber: 'L898902C3', corrections: ['documentNumber'], checkDigitRepairs: [] });
    const stateRead = readMrz(`${l1.replace('UTO', 'UT0')}\n${l2}`, NOW);
    expect(stateRead).toMatchObject({ valid: true, issuingState: 'UTO', corrections: ['issuingState'] });
  });

  it('takes a state code that is no ICAO code for the one code a single letter look-alike swap gives, and says so apart', () => {
    expect(repairStateCode('IPN')).toBe('JPN');
    expect(repairStateCode('DEV')).toBe('DEU');
    // BOL and BDI are both one swap from BDL: no choice is made.
    expect(repairStateCode('BDL')).toBeNull();
    const [l1, l2] = SPECIMENS.find(([format]) => format === 'MRVA')![1];
    const visa = readMrz(`${l1.replace('UTO', 'JPN')}\n${l2.replace('XXX', 'IPN')}`, NOW);
    expect(visa).toMatchObject({ valid: true, nationality: 'JPN', corrections: [], stateRepairs: ['nationality'], checkDigitRepairs: [] });
    const ambiguous = readMrz(`${l1}\n${l2.replace('XXX', 'BDL')}`, NOW);
    expect(ambiguous).toMatchObject({ valid: false, nationality: 'BDL', invalidFields: ['nationality'] });
  });

  it('counts every O read as 0 against the one unconfirmed swap of a visa number', () => {
    const [l1, l2] = SPECIMENS.find(([format]) => format === 'MRVA')![1];
    const number = 'AB1020003';
    const printed = `${l1}\n${number}${mrzCheckDigit(number)}${l2.slice(10)}`;
    expect(readMrz(printed, NOW)).toMatchObject({ valid: true, documentNumber: number, checkDigitRepairs: [] });
    // Two O's for two 0's: two changes, which the number's own check digit alone may not vouch for.
    expect(readMrz(printed.replace(number, 'AB1O2O003'), NOW)).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
  });

  it('repairs a visa number by its own check digit only when one swap is the only one, and sends it to review', () => {
    const [l1, l2] = SPECIMENS.find(([format]) => format === 'MRVA')![1];
    const repaired = readMrz(`${l1}\n${l2.replace('L8988901C', 'L898890IC')}`, NOW);
    expect(repaired).toMatchObject({ valid: true, documentNumber: 'L8988901C', checkDigitRepairs: ['documentNumber'] });
    // Twenty-one single swaps satisfy this check digit: none is believed.
    const ambiguous = readMrz(`${l1}\n${l2.replace('L8988901C', 'L89B8901C')}`, NOW);
    expect(ambiguous).toMatchObject({ valid: false, documentNumber: 'L89B8901C', checkDigitRepairs: [] });
    expect(ambiguous?.invalidFields).toContain('documentNumberCheckDigit');
  });

  it('places a character the OCR added before a number by the check digits, and sends the reading to review', () => {
    const [l1, l2] = SPECIMENS[0]![1];
    expect(readMrz(`${l1}\nC${l2}`, NOW)).toMatchObject({ valid: true, documentNumber: 'L898902C3', checkDigitRepairs: ['documentNumber'] });
  });

  it('reads a number with a character added invalid when the check digits hold for two placements, not as another number', () => {
    // Read from generated specimens: the visa's "8H9KUN02X" with an I added; deleting the K held as well as deleting
    // the I, and the TD1 "M7JMS4P9V" with an I added, where deleting the M (or the L of IRL, taken for IRN) held too.
    const visa = readMrz('V<UTOSILVA<<LUCAS<<<<<<<<<<<<<<<<<<<<<<<<<<<\n8HI9KUNO2X8UT08308171F3406049<<<<<<<<<<<<<<<<', NOW);
    expect(visa).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
    const card = readMrz('I<IRLM7JIMS4P9V9<<<<<<<<<<<<<<<\n6605164F3407286IRL<<<<<<<<<<<8\nSILVA<<OLGA<<<<<<<<<<<<<<<<<<<', NOW);
    expect(card).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
  });

  it('property: a K (worth 0 to a check digit) or a filler added to a document number reads the printed number or invalid; one dropped never reads plainly valid', () => {
    const NUMBER_SPAN: Record<MrzFormat, [number, number, number]> = {
      TD3: [1, 0, 10], TD2: [1, 0, 10], MRVA: [1, 0, 10], MRVB: [1, 0, 10], TD1: [0, 5, 15], FRA_ID: [1, 0, 13],
    };
    for (const [format, lines, documentNumber] of SPECIMENS) {
      const [line, from, to] = NUMBER_SPAN[format];
      const original = lines[line]!;
      for (let at = from; at < to; at++) {
        for (const c of 'K<') {
          const added = readMrz(lines.map((l, i) => (i === line ? original.slice(0, at) + c + original.slice(at) : l)).join('\n'), NOW);
          if (added?.valid) expect(added.documentNumber, `${format}: ${c} at ${at}`).toBe(documentNumber);
        }
        const dropped = readMrz(lines.map((l, i) => (i === line ? original.slice(0, at) + original.slice(at + 1) : l)).join('\n'), NOW);
        if (dropped?.valid) expect(dropped.checkDigitRepairs, `${format}: dropped at ${at}`).not.toEqual([]);
      }
    }
  });

  it('reads O and Q in a failing number as 0 and prefers repairs that bring in no letter issuers avoid', () => {
    const [l1, l2] = SPECIMENS[0]![1];
    const zero = readMrz(`${l1}\n${l2.replace('L898902C3', 'L8989Q2C3')}`, NOW);
    expect(zero).toMatchObject({ valid: true, documentNumber: 'L898902C3', corrections: ['documentNumber'], checkDigitRepairs: [] });
    // J read as I: I→J and 1→I (at the end) both satisfy the check digit; the latter would bring in an I.
    const polish = ['P<POLGARCIA<LOPEZ<<BRIDGET<<<<<<<<<<<<<<<<<<', 'TZKIPMW116POL7612105M340318518708231<<<<<<80'];
    expect(readMrz(polish.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11', checkDigitRepairs: ['documentNumber'] });
  });

  it('reads the O and Q of a failing number as 0 as a correction only where nothing else could hold and a composite read as a digit confirms the check digit', () => {
    // Generated TD2 (seed 3187): UG9D0GTD7 read UG9DOGTD7, one O: only 0 holds (O is 24 from 0, 9 is 9 from it).
    const card = ['I<DEUMUELLER<<CHIDI<<<<<<<<<<<<<<<<<', 'UG9D0GTD73DEU5308055F301014947083206'];
    expect(readMrz(card.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'UG9D0GTD7', corrections: [], checkDigitRepairs: [] });
    const read = readMrz(`${card[0]}\n${card[1]!.replace('UG9D0', 'UG9DO')}`, NOW);
    expect(read).toMatchObject({ valid: true, documentNumber: 'UG9D0GTD7', corrections: ['documentNumber'], checkDigitRepairs: [], lines: card });
    // A composite read as a letter (G for its 6) confirms nothing: the O stays a repair.
    const letterComposite = readMrz(`${card[0]}\n${card[1]!.replace('UG9D0', 'UG9DO').replace(/6$/, 'G')}`, NOW);
    expect(letterComposite).toMatchObject({ valid: true, documentNumber: 'UG9D0GTD7', checkDigitRepairs: ['documentNumber'] });
    // Two O under weights 7 and 3 hold as 00 and as 99 alike (63 + 27), with a Q (26) after them so that the letters
    // as read fail: never a correction.
    const zeros = '000ABCDE1';
    const twin = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: zeros });
    expect(mrzCheckDigit('99' + zeros.slice(2))).toBe(mrzCheckDigit(zeros));
    expect(mrzCheckDigit('OOQ' + zeros.slice(3))).not.toBe(mrzCheckDigit(zeros));
    const twinRead = readMrz(twin.join('\n').replace(zeros, 'OOQABCDE1'), NOW);
    expect(twinRead?.corrections).not.toContain('documentNumber');
    expect(twinRead?.valid === false || twinRead!.checkDigitRepairs.includes('documentNumber')).toBe(true);
    // A visa has no composite to confirm its check digit: the O read as 0 stays a repair (review).
    const visa = ['V<FRADUBOIS<<BRIDGET<<<<<<<<<<<<<<<<<<<<<<<<', 'SCN9S0ZSA1FRA6011103F2701219<<<<<<<<<<<<<<<<'];
    expect(readMrz(visa.join('\n'), NOW)).toMatchObject({ valid: true, checkDigitRepairs: [] });
    const visaRead = readMrz(`${visa[0]}\n${visa[1]!.replace('S0Z', 'SOZ')}`, NOW);
    expect(visaRead).toMatchObject({ valid: true, documentNumber: 'SCN9S0ZSA', checkDigitRepairs: ['documentNumber'] });
  });

  it('reads a check digit read as O as 0 or 9, whichever holds with the number as read, and never swaps the number for it', () => {
    // Generated visa: its number's check digit 9 read as O (the LSTM model's usual misreading of this font's 9).
    const visa = ['V<DEUERIKSSON<<MOHAMMED<ALI<<<<<<<<<', 'XWJZ5N5VM9DEU5709021M310712857124754'];
    const read = readMrz(`${visa[0]}\n${visa[1]!.replace('M9DEU', 'MODEU')}`, NOW);
    // No composite confirms the choice on a visa: review.
    expect(read).toMatchObject({ valid: true, documentNumber: 'XWJZ5N5VM', checkDigitRepairs: ['documentNumberCheckDigit'] });
    // A check digit read as a letter (I: 1) that fails chooses no look-alike swap in the number: before, one of the
    // swaps satisfying 1 was taken, a valid reading of another number.
    expect(readMrz(`${visa[0]}\n${visa[1]!.replace('M9DEU', 'MIDEU')}`, NOW)).toMatchObject({ valid: false, invalidFields: ['documentNumberCheckDigit'] });
  });

  it('sends a check digit taken for a look-alike to review even where a composite covers it', () => {
    // X00418916, check digit 2, read with its 9 as O and the 2 as Z: Z taken as 7 holds for the number as read, and
    // the composite, which weighs the number as its own check digit does, holds too (both shift by 5).
    const passport = ['P<DEUERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'X004189162DEU7408122F3403152<<<<<<<<<<<<<<<4'];
    expect(readMrz(passport.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'X00418916', checkDigitRepairs: [] });
    const read = readMrz(`${passport[0]}\n${passport[1]!.replace('X004189162', 'X00418O16Z')}`, NOW);
    expect(read?.checkDigitRepairs).toContain('documentNumberCheckDigit');
  });

  it('lets a composite confirm a swap chosen by a check digit read as a letter, and never reads a number with a leading filler', () => {
    // Generated passport: 0VK67ZYFK, check digit 4, read with O for 0 and A for 4.
    const printed = ['P<IRLDUBOIS<<JEAN<PIERRE<<<<<<<<<<<<<<<<<<<<', '0VK67ZYFK4IRL8809195F3308165<<<<<<<<<<<<<<<2'];
    expect(readMrz(printed.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: '0VK67ZYFK', checkDigitRepairs: [] });
    const read = readMrz(`${printed[0]}\n${printed[1]!.replace('0VK67ZYFK4', 'OVK67ZYFKA')}`, NOW);
    expect(read).toMatchObject({ valid: true, documentNumber: '0VK67ZYFK', checkDigitRepairs: ['documentNumber'] });
    // A lost first character: the check digit (read I, 1) held for the shifted number by chance.
    const shifted = readMrz('V<DEUERIKSSON<<MOHAMMED<ALI<<<<<<<<<\n<XJZ5N5VM1DEU5709021M310712857124754', NOW);
    expect(shifted).toMatchObject({ valid: false, invalidFields: ['documentNumber'] });
  });

  it('takes a number letter O read for a 9 when that alone satisfies the check digit, before O as 0 plus a swap', () => {
    const visa = readMrz('V<POLOKAFOR<<KENJI<<<<<<<<<<<<<<<<<<\nWDFOW7Y596POL6008042M3207143<<<<<<<<', NOW);
    expect(visa).toMatchObject({ valid: true, documentNumber: 'WDF9W7Y59', checkDigitRepairs: ['documentNumber'] });
    // O as 0 and 8 as B satisfies the check digit (and the composite, which weighs the number alike) with two changes.
    const passport = readMrz('P<JPNERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nYLMO78V5C9JPN9109054F291221393265899<<<<<<92', NOW);
    expect(passport).toMatchObject({ valid: true, documentNumber: 'YLM978V5C', checkDigitRepairs: ['documentNumber'] });
  });

  it('reads a TD1 document code whose I was read as T, and a name line that lost fillers at its end', () => {
    const card = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
    const code = readMrz([card[0]!.replace(/^I/, 'T'), card[1], card[2]].join('\n'), NOW);
    expect(code).toMatchObject({ valid: true, documentCode: 'I', corrections: ['documentCode'], checkDigitRepairs: [] });
    const shortName = readMrz([card[0], card[1], 'ERIKSSON<<ANNA<MARIA<<'].join('\n'), NOW);
    expect(shortName).toMatchObject({ valid: true, lastName: 'ERIKSSON', firstName: 'ANNA MARIA', documentNumber: 'D23145890' });
    // A code no single look-alike swap makes a TD1 code stays no MRZ of that format.
    expect(readMrz([card[0]!.replace(/^I/, 'X'), card[1], card[2]].join('\n'), NOW)?.valid).not.toBe(true);
  });

  it('sends a number whose I, O or Q its check digit cannot tell from digits to review, O taken as 0', () => {
    // Generated TD1 (seed 3187): 00SF5G2EH read OOSF5G2EH, O for 0 under weights 7 and 3 (240, nothing mod 10).
    const card = ['I<DEU00SF5G2EH7<<<<<<<<<<<<<<<', '6704171F3207224DEU<<<<<<<<<<<4', 'OKAFOR<<ANNA<MARIA<<<<<<<<<<<<'];
    expect(readMrz(card.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: '00SF5G2EH', checkDigitRepairs: [] });
    const read = readMrz([card[0]!.replace('00SF', 'OOSF'), card[1], card[2]].join('\n'), NOW);
    expect(read).toMatchObject({ valid: true, documentNumber: '00SF5G2EH', checkDigitRepairs: ['documentNumber'] });
    expect(read?.lines[0]).toBe(card[0]);
    // MRV-B 97W9RVRJX read 97WIRVRIX: I as 1 at both places would hold as well; kept as read, in review.
    const visa = readMrz('V<NGAOKAFOR<<CHIDI<<<<<<<<<<<<<<<<<<\n97WIRVRIX0NGA9807224M330203736609875', NOW);
    expect(visa).toMatchObject({ valid: true, documentNumber: '97WIRVRIX', checkDigitRepairs: ['documentNumber'] });
    // A number with an O whose digit reading fails its check digit is as read: the check digit tells them apart.
    const plain = readMrz('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nLO98902C34UTO7408122F1204159ZE184226B<<<<<14', NOW);
    expect(plain).toMatchObject({ valid: true, documentNumber: 'LO98902C3', checkDigitRepairs: [] });
  });

  it('never passes plainly a number whose 0s and 1s were written as O, Q or I where its check digits still hold', () => {
    // What a forger (or the OCR) can do unseen by the check digits: O/Q for 0 and I for 1 at places whose shifts cancel.
    const NUMBERS = ['X00418916', '0GVG0ND7U', '10V8WEWKM', 'D01X00T47', '5100K0P1C', '00SF5G2EH'];
    const LETTERS: Record<string, string[]> = { '0': ['O', 'Q'], '1': ['I'] };
    let forgeries = 0;
    let frenchForgeries = 0;
    for (const format of ['TD3', 'TD2', 'TD1', 'MRVA', 'MRVB', 'FRA_ID'] as const) {
      for (const holderNumber of NUMBERS) {
        const printed = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: holderNumber });
        // The French card's number is its issue month, department and the holder number's digits.
        const documentNumber = format === 'FRA_ID' ? printed[1]!.slice(0, 12) : holderNumber;
        const places = [...documentNumber].flatMap((c, i) => (c in LETTERS ? [i] : []));
        for (let mask = 1; mask < 1 << places.length; mask++) {
          for (const useQ of [false, true]) {
            const forged = [...documentNumber];
            places.forEach((at, k) => {
              if (mask & (1 << k)) forged[at] = LETTERS[forged[at]!]![useQ && forged[at] === '0' ? 1 : 0]!;
            });
            const text = forged.join('');
            if (mrzCheckDigit(text) !== mrzCheckDigit(documentNumber)) continue;
            forgeries++;
            if (format === 'FRA_ID') frenchForgeries++;
            const reading = readMrz(printed.join('\n').replace(documentNumber, text), NOW);
            expect(reading?.valid === false || reading!.checkDigitRepairs.length > 0, `${format} ${text}`).toBe(true);
          }
        }
      }
    }
    expect(forgeries).toBeGreaterThan(20);
    expect(frenchForgeries).toBeGreaterThan(0);
  });

  it('never repairs a tampered number check digit into a plain pass, on any format', () => {
    for (const [format, lines] of SPECIMENS) {
      const [line, index] = DIGIT_POSITIONS[format][0]!;
      for (let digit = 0; digit <= 9; digit++) {
        if (String(digit) === lines[line]![index]) continue;
        const tampered = lines.map((l, i) => (i === line ? l.slice(0, index) + digit + l.slice(index + 1) : l));
        const reading = readMrz(tampered.join('\n'), NOW);
        // Either invalid, or valid only through a repair that decision.ts sends to review.
        expect(reading?.valid === false || reading!.checkDigitRepairs.length > 0, `${format} -> ${digit}`).toBe(true);
      }
    }
  });

  it('property: a digit changed in a date or check digit never reads valid without a check-digit repair', () => {
    for (const [format, lines] of SPECIMENS) {
      const positions = DIGIT_POSITIONS[format];
      for (const [line, index] of positions) {
        for (let digit = 0; digit <= 9; digit++) {
          const original = lines[line]![index]!;
          if (!/\d/.test(original) || String(digit) === original) continue;
          const tampered = lines.map((l, i) => (i === line ? l.slice(0, index) + digit + l.slice(index + 1) : l));
          const reading = readMrz(tampered.join('\n'), NOW);
          const plainlyValid = reading?.valid === true && reading.checkDigitRepairs.length === 0;
          expect(plainlyValid, `${format} line ${line} index ${index} -> ${digit}`).toBe(false);
        }
      }
    }
  });

  it('property: any other single change reads invalid or is reported as a repair', () => {
    const random = seededRandom(14);
    for (let trial = 0; trial < 400; trial++) {
      const [format, lines] = SPECIMENS[Math.floor(random() * SPECIMENS.length)]!;
      const line = Math.floor(random() * lines.length);
      const index = Math.floor(random() * lines[line]!.length);
      const replacement = ALPHABET[Math.floor(random() * ALPHABET.length)]!;
      const original = lines[line]![index]!;
      // ICAO check digits cannot see a change by a multiple of 10 (0 ↔ A ↔ K ↔ U): no reader can.
      if (replacement === original || (charValue(replacement) - charValue(original)) % 10 === 0) continue;
      // Names, codes, sex and MRV optional data carry no check digit: no reader can see them change.
      if (UNCHECKED[format](line, index)) continue;
      const tampered = lines.map((l, i) => (i === line ? l.slice(0, index) + replacement + l.slice(index + 1) : l));
      const reading = readMrz(tampered.join('\n'), NOW);
      const repaired = (reading?.corrections.length ?? 0) + (reading?.checkDigitRepairs.length ?? 0) > 0;
      const silentlyValid = reading?.valid === true && !repaired && reading.lines.join() !== lines.join();
      expect(silentlyValid, `${format}: ${tampered.join(' / ')}`).toBe(false);
    }
  });

  it('property: OCR look-alikes, filler noise and a miscounted line still read the same document', () => {
    const random = seededRandom(9303);
    for (let trial = 0; trial < 300; trial++) {
      const [format, lines, documentNumber] = SPECIMENS[Math.floor(random() * SPECIMENS.length)]!;
      const truth = readMrz(lines.join('\n'), NOW)!;
      const noisy = lines.map((l, lineIndex) => degrade(l, DIGIT_POSITIONS[format].filter(([li]) => li === lineIndex).map(([, i]) => i), random));
      const reading = readMrz(noisy.join('\n'), NOW);
      expect(reading, `${format}: ${noisy.join(' / ')}`).toMatchObject({
        valid: true,
        documentNumber,
        birthDate: truth.birthDate,
        expiryDate: truth.expiryDate,
        lastName: truth.lastName,
      });
    }
  });

  describe('check digits read again from the image', () => {
    const [, td1] = SPECIMENS.find(([format]) => format === 'TD1')!;
    const withLine = (lines: string[], index: number, text: string) => lines.map((l, i) => (i === index ? text : l));
    const composite = { field: 'composite', line: 1, index: 29 };

    it('finds a TD1 composite read as a filler or dropped, and takes the digit read again as a correction', () => {
      for (const line2 of [td1[1]!.slice(0, 29) + '<', td1[1]!.slice(0, 29)]) {
        const reading = readMrz(withLine(td1, 1, line2).join('\n'), NOW)!;
        expect(reading, line2).toMatchObject({ format: 'TD1', valid: false, invalidFields: ['compositeCheckDigit'] });
        expect(unreadCheckDigits(reading)).toEqual([composite]);
        const reread = withRereadCheckDigits(reading, [{ place: composite, digit: '6' }], NOW);
        expect(reread).toMatchObject({ valid: true, documentNumber: 'D23145890', corrections: ['compositeCheckDigit'], checkDigitRepairs: [] });
      }
    });

    it('reads again a TD1 number check digit dropped before the filler run, and a composite read as a letter', () => {
      const numberCheck = { field: 'documentNumber', line: 0, index: 14 };
      const dropped = readMrz(withLine(td1, 0, 'I<UTOD23145890' + '<'.repeat(15)).join('\n'), NOW)!;
      expect(unreadCheckDigits(dropped)).toEqual([numberCheck]);
      expect(withRereadCheckDigits(dropped, [{ place: numberCheck, digit: '7' }], NOW)).toMatchObject({
        valid: true,
        corrections: ['documentNumberCheckDigit'],
        checkDigitRepairs: [],
      });
      expect(withRereadCheckDigits(dropped, [{ place: numberCheck, digit: '1' }], NOW).valid).toBe(false);
      // Y stands for 8 or 9, which fail: the letter is no reading of the digit, so the image is asked.
      const letter = readMrz(withLine(td1, 1, td1[1]!.slice(0, 29) + 'Y').join('\n'), NOW)!;
      expect(unreadCheckDigits(letter)).toEqual([composite]);
      expect(withRereadCheckDigits(letter, [{ place: composite, digit: '6' }], NOW)).toMatchObject({ valid: true, corrections: ['compositeCheckDigit'] });
    });

    it('never makes a tampered TD1 valid: only the printed digit validates, and a changed date fails whatever is read', () => {
      const unread = readMrz(withLine(td1, 1, td1[1]!.slice(0, 29) + '<').join('\n'), NOW)!;
      const tamperedDate = readMrz(withLine(td1, 1, '7508122F1204159UTO<<<<<<<<<<<<').join('\n'), NOW)!;
      expect(unreadCheckDigits(tamperedDate)).toEqual([composite]);
      for (let digit = 0; digit <= 9; digit++) {
        const reread = [{ place: composite, digit: String(digit) }];
        expect(withRereadCheckDigits(unread, reread, NOW).valid, `read ${digit}`).toBe(digit === 6);
        expect(withRereadCheckDigits(tamperedDate, reread, NOW).valid, `tampered, read ${digit}`).toBe(false);
      }
      expect(() => withRereadCheckDigits(unread, [{ place: composite, digit: '<' }], NOW)).toThrow();
    });

    it('sends a re-read field check digit to review unless a composite read in the first pass confirms it', () => {
      const [, td3] = SPECIMENS.find(([format]) => format === 'TD3')!;
      const td3Reading = readMrz(withLine(td3, 1, td3[1]!.slice(0, 9) + '<' + td3[1]!.slice(10)).join('\n'), NOW)!;
      const numberCheck = { field: 'documentNumber', line: 1, index: 9 };
      expect(unreadCheckDigits(td3Reading)).toEqual([numberCheck]);
      expect(withRereadCheckDigits(td3Reading, [{ place: numberCheck, digit: '6' }], NOW)).toMatchObject({
        valid: true,
        corrections: ['documentNumberCheckDigit'],
        checkDigitRepairs: [],
      });
      const [, visa] = SPECIMENS.find(([format]) => format === 'MRVB')!;
      const visaReading = readMrz(withLine(visa, 1, visa[1]!.slice(0, 9) + '<' + visa[1]!.slice(10)).join('\n'), NOW)!;
      expect(withRereadCheckDigits(visaReading, [{ place: numberCheck, digit: '4' }], NOW)).toMatchObject({
        valid: true,
        corrections: [],
        checkDigitRepairs: ['documentNumberCheckDigit'],
      });
    });

    it('does not re-read a digit that was read, nor the filler after a TD1 number that runs on', () => {
      const misread = readMrz(withLine(td1, 1, td1[1]!.slice(0, 29) + '5').join('\n'), NOW)!;
      expect(misread.invalidFields).toEqual(['compositeCheckDigit']);
      expect(unreadCheckDigits(misread)).toEqual([]);
      const longNumber = ['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<<', 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
      expect(unreadCheckDigits(readMrz(longNumber.join('\n'), NOW)!)).toEqual([composite]);
    });

    it('places the character on the OCR line it came from, at the pitch of the MRZ lines', () => {
      const lines = [
        { text: 'I<UTOD231458907<<<<<<<<<<<<<<<', box: { x0: 100, y0: 10, x1: 400, y1: 40 } },
        // The composite's glyph lies inside the box though the text lost it.
        { text: '7408122F1204159UTO<<<<<<<<<<<', box: { x0: 100, y0: 50, x1: 400, y1: 80 } },
        { text: 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<', box: { x0: 101, y0: 90, x1: 401, y1: 120 } },
      ];
      const box = characterBox(td1, 1, 29, lines)!;
      expect(box.x0).toBeCloseTo(388.5);
      expect(box.x1).toBeCloseTo(401.5);
      expect(box.y0).toBeCloseTo(45.5);
      expect(box.y1).toBeCloseTo(84.5);
      expect(characterBox(td1, 1, 29, lines.slice(0, 1))).toBeNull();
    });

    it('doubts a number read plainly valid when another look at the page read it otherwise', async () => {
      const pixels = { data: new Uint8Array(300 * 200 * 3), width: 300, height: 200 };
      /** An OCR engine that reads each of `looks` in turn (the last one from then on), every character at confidence 99. */
      const lookByLook = (looks: string[][]): OcrEngine => {
        let call = 0;
        const bandText = (lines: string[]): BandText => ({
          text: lines.join('\n'),
          lines: lines.map((text, i) => {
            const y0 = 10 + 40 * i;
            const symbols: OcrSymbol[] = [...text].map((c, k) => ({ text: c, confidence: 99, box: { x0: 10 + 10 * k, y0, x1: 18 + 10 * k, y1: y0 + 30 } }));
            return { text, box: { x0: 10, y0, x1: 10 + 10 * text.length, y1: y0 + 30 }, symbols };
          }),
        });
        return {
          readMrzBand: async () => bandText(looks[Math.min(call++, looks.length - 1)]!),
          readDigit: async () => null,
          readCharacter: async () => null,
          readText: async () => '',
          readPrintedBand: async () => [],
          close: async () => undefined,
        };
      };
      // Generated TD1 (round 10, seed 6067, tilt 3°): 0HLD6WPDD, read OHLDBWPDD (invalid) at the default scale, then
      // OHLDBOWPD at the format's own (a character added, one lost, the check digit holding by chance).
      const [, line2, line3] = ['', '6607179M2911010BRA<<<<<<<<<<<4', 'MUELLER<<CHIDI<<<<<<<<<<<<<<<<'];
      const firstLook = ['I<BRAOHLDBWPDDO<<<<<<<<<<<<<<<', line2, line3];
      const wrongLook = ['I<BRAOHLDBOWPD0<<<<<<<<<<<<<<<', line2, line3];
      expect(readMrz(wrongLook.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'OHLDBOWPD', checkDigitRepairs: [], corrections: [] });
      expect(await readMrzFromImage(pixels, lookByLook([firstLook, wrongLook]), NOW)).toMatchObject({
        valid: true,
        documentNumber: 'OHLDBOWPD',
        uncertainCharacters: ['documentNumber'],
      });
      // Read so by every look that found the MRZ, the number is not doubted.
      expect(await readMrzFromImage(pixels, lookByLook([['SPECIMEN'], wrongLook]), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
      // A look that read another format read the number at other places: it says nothing about this one.
      const td2 = composeMrz('TD2', { ...SPECIMEN_HOLDER, documentNumber: 'L898902C3' });
      const otherFormat = [td2[0]!, `${td2[1]!.slice(0, 35)}${(Number(td2[1]!.at(-1)) + 1) % 10}`];
      expect(readMrz(otherFormat.join('\n'), NOW)).toMatchObject({ format: 'TD2', valid: false, documentNumber: 'L898902C3' });
      expect(await readMrzFromImage(pixels, lookByLook([otherFormat, wrongLook]), NOW)).toMatchObject({ format: 'TD1', valid: true, uncertainCharacters: [] });
      // Round 19, dev seed 4242, an MRV-B photographed at a tilt: the first look read the number right but its name
      // line short, so it gave no MRZ; the next read 9 as I and 5 as S, which shift the check digit by 50.
      const name = 'V<POLODONNELL<<LI<<<<<<<<<<<<<<<<<<<';
      const shortName = ['Y<POLODONNELL<<LI<<<<<<<<<', 'J9GLAS F8P2POL5906015F280304361209990'];
      const misread = [name, 'JIGLASF8P2POL5906015F280304361209999'];
      expect(readMrz(shortName.join('\n'), NOW)).toBeNull();
      expect(readMrz(misread.join('\n'), NOW)).toMatchObject({ format: 'MRVB', valid: true, documentNumber: 'JIGLASF8P', checkDigitRepairs: [] });
      expect(await readMrzFromImage(pixels, lookByLook([shortName, misread]), NOW)).toMatchObject({ valid: true, uncertainCharacters: ['documentNumber'] });
      const sameNumber = [shortName[0]!, 'JIGLASF8P2POL5906015F280304361209990'];
      expect(await readMrzFromImage(pixels, lookByLook([sameNumber, misread]), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
      // A look that added a character inside the number gives nine characters shifted by one, no other reading of it
      // (round 19 review, dev seeds 4242/5151: correct readings sent to review so): the printed number is not doubted.
      const printed = [name, 'J9GLA5F8P2POL5906015F280304361209999'];
      expect(readMrz(printed.join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'J9GLA5F8P', checkDigitRepairs: [] });
      const addedCharacter = [shortName[0]!, 'J9GLA5FF8P2POL5906015F280304361209999'];
      expect(readMrz(addedCharacter.join('\n'), NOW)).toBeNull();
      expect(await readMrzFromImage(pixels, lookByLook([addedCharacter, printed]), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
    });

    it("reads a band again with thinner strokes when its fillers came out as letters (OCR-B's '<'), and only then", async () => {
      const original = { data: new Uint8Array(300 * 200 * 3).fill(255), width: 300, height: 200 };
      const printed = composeTd3({ ...SPECIMEN_HOLDER, documentNumber: 'LWH46LTGB' });
      // The number's check digit read as I (a glyph OCR-B's thick strokes blur): invalid, and no digit re-read here.
      const garbled = (tail: string) => [`P<SWEERIKSSON<<ANNA<MARIA<<${tail}`, `${printed[1]!.slice(0, 9)}I${printed[1]!.slice(10)}`];
      const engine = (plainRead: string[]) => {
        const pixelsRead: unknown[] = [];
        const ocr = linesEngine((pixels) => {
          pixelsRead.push(pixels);
          return pixels === original ? plainRead : printed;
        });
        return { ocr, pixelsRead };
      };
      const noisy = engine(garbled('<<KLKLLLKKLKLLLKLK'));
      expect(await readMrzFromImage(original, noisy.ocr, NOW)).toMatchObject({ valid: true, documentNumber: 'LWH46LTGB' });
      expect(noisy.pixelsRead[1]).not.toBe(original);
      expect(noisy.pixelsRead.filter((pixels) => pixels !== original)).toHaveLength(1);
      // The same fault with clean fillers: the band is never read thinned.
      const clean = engine(garbled('<<<<<<<<<<<<<<<<<<'));
      await readMrzFromImage(original, clean.ocr, NOW);
      expect(clean.pixelsRead.every((pixels) => pixels === original)).toBe(true);
    });

    it('reads the MRZ of a document photographed small on a table from its region cut out of the photo', async () => {
      const page = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 410 }).png().toBuffer();
      const pixels = await onTable([{ input: page, left: 300, top: 250 }]);
      const printed = composeTd3(SPECIMEN_HOLDER);
      const seen: { width: number; height: number }[] = [];
      // Reads the MRZ only from an image about as wide as the MRZ (at the photo's OCR scale its glyphs are too small).
      const ocr = linesEngine((image) => {
        seen.push({ width: image.width, height: image.height });
        return image.width < 420 && image.height < 200 ? printed : [];
      });
      expect(await readMrzFromImage(pixels, ocr, NOW)).toMatchObject({ valid: true, documentNumber: SPECIMEN_HOLDER.documentNumber, checkDigitRepairs: [] });
      // The photo first, as before; then the region: inside the 410 px page, more than its MRZ's ~360 px.
      expect(seen[0]).toEqual({ width: 1024, height: 768 });
      expect(seen[1]!.width).toBeGreaterThan(340);
      expect(seen[1]!.width).toBeLessThan(410);
      // A licence's read (most carry no MRZ) does not look for the region: no OCR pass on an image cut out of the photo.
      seen.length = 0;
      expect(await readMrzFromImage(pixels, ocr, NOW, undefined, [{ top: 0.6, bottom: 1 }, { top: 0, bottom: 1 }], false)).toBeNull();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every(({ width, height }) => width === 1024 && height === 768)).toBe(true);
    });

    it('reads the MRZ of a small document in a large photo from its region cut out of the upload at full resolution', async () => {
      // A 4032×3024 phone photo, the passport at ~35 % of its width, lying a little turned: ~560 px in the working copy.
      const upload = await passportInLargePhoto(2, 1300, 1100);
      const printed = composeTd3(SPECIMEN_HOLDER);
      // Reads the MRZ only from an image holding it at the upload's resolution (~1250 px): the working copy's cut is ~500 px.
      const ocr = linesEngine((image) => (image.width > 1000 && image.width < 1400 && image.height < 600 ? printed : []));
      expect(await readMrzFromImage(upload.pixels, ocr, NOW)).toBeNull();
      expect(await readMrzFromImage(upload.pixels, ocr, NOW, undefined, undefined, true, upload)).toMatchObject({ valid: true, documentNumber: SPECIMEN_HOLDER.documentNumber });
      expect(await readApplicantMrz(upload.pixels, ocr, NOW, { firstName: SPECIMEN_HOLDER.givenNames, lastName: SPECIMEN_HOLDER.surname }, undefined, upload)).toMatchObject({ mrz: { valid: true }, otherDocument: null });
    });

    it('reads the MRZ of a small document turned a quarter from its region cut out of the photo turned upright', async () => {
      const page = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 410 }).png().toBuffer();
      const printed = composeTd3(SPECIMEN_HOLDER);
      // Reads the MRZ only from an upright image about as wide as the page (the region cut out of the turned photo;
      // upright, the photo's text blocks are narrower).
      const ocr = linesEngine((image) => (image.width > 340 && image.width < 440 && image.height < 220 ? printed : []));
      for (const quarter of [90, 270]) {
        const pixels = await onTable([{ input: await sharp(page).rotate(quarter).toBuffer(), left: 380, top: 150 }]);
        expect(await readMrzFromImage(pixels, ocr, NOW), `${quarter}°`).toMatchObject({ valid: true, documentNumber: SPECIMEN_HOLDER.documentNumber });
      }
    });

    describe('two documents in one photo', () => {
      const other = { ...SPECIMEN_HOLDER, surname: 'OKAFOR', givenNames: 'CHIDI', documentNumber: 'K7M2P9X41', birthDate: '810302' };
      /** A passport of the specimen holder (460 px) and `card`'s holder's ID card (330 px) side by side on a table. */
      const scene = async (card = other) => {
        const passport = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 460 }).png().toBuffer();
        const idCard = await sharp(await renderDocument('TD1', card)).resize({ width: 330 }).png().toBuffer();
        const pixels = await onTable([{ input: idCard, left: 60, top: 330 }, { input: passport, left: 480, top: 200 }]);
        // Each MRZ reads only from an image about its own size: the passport's region (~400 px), the card's (~290 px).
        const ocr = linesEngine((image) =>
          image.height > 200 ? [] : image.width > 340 && image.width < 470 ? composeTd3(SPECIMEN_HOLDER) : image.width < 340 ? composeTd1(card) : [],
        );
        return { pixels, ocr };
      };
      const claim = (holder: typeof SPECIMEN_HOLDER) => ({ firstName: holder.givenNames, lastName: holder.surname });

      it("reads both MRZs and takes the document whose name the request claims, naming the other person's", async () => {
        const { pixels, ocr } = await scene();
        expect(await readApplicantMrz(pixels, ocr, NOW, claim(other))).toMatchObject({
          mrz: { format: 'TD1', valid: true, documentNumber: other.documentNumber },
          otherDocument: { format: 'TD3', sameHolder: false },
        });
        const passport = await readApplicantMrz(pixels, ocr, NOW, claim(SPECIMEN_HOLDER));
        expect(passport).toMatchObject({
          mrz: { format: 'TD3', documentNumber: SPECIMEN_HOLDER.documentNumber },
          otherDocument: { format: 'TD1', sameHolder: false },
        });
        // Round 23: the passport's MRZ is not the lowest (the card's is, whose page is read by default): its own
        // region is given for its printed page, on the right of the photo; the card's needs none.
        expect(passport.pageRegion).toMatchObject({ lowest: false });
        expect(passport.pageRegion!.left).toBeGreaterThan(0.45);
        expect((await readApplicantMrz(pixels, ocr, NOW, claim(other))).pageRegion).toBeNull();
      });

      it('takes the larger document when no name is claimed, and knows a second document of the same holder', async () => {
        const { pixels, ocr } = await scene();
        expect(await readApplicantMrz(pixels, ocr, NOW, { firstName: '', lastName: '' })).toMatchObject({
          mrz: { format: 'TD3', documentNumber: SPECIMEN_HOLDER.documentNumber },
          otherDocument: { format: 'TD1', sameHolder: false },
        });
        const same = await scene({ ...SPECIMEN_HOLDER, documentNumber: other.documentNumber });
        expect(await readApplicantMrz(same.pixels, same.ocr, NOW, claim(SPECIMEN_HOLDER))).toMatchObject({
          mrz: { format: 'TD3' },
          otherDocument: { format: 'TD1', sameHolder: true },
        });
      });

      it("names the other document when only another person's reads valid and the claimed holder's MRZ does not", async () => {
        const { pixels } = await scene();
        // The card's composite check digit read wrong: an MRZ, invalid.
        const card = composeTd1(other).map((line, k) => (k === 1 ? `${line.slice(0, 29)}${(Number(line[29]) + 1) % 10}` : line));
        const ocr = linesEngine((image) =>
          image.height > 200 ? [] : image.width > 340 && image.width < 470 ? composeTd3(SPECIMEN_HOLDER) : image.width < 340 ? card : [],
        );
        expect(await readApplicantMrz(pixels, ocr, NOW, claim(other))).toMatchObject({
          mrz: { format: 'TD3', documentNumber: SPECIMEN_HOLDER.documentNumber },
          otherDocument: { format: 'TD1', sameHolder: false },
        });
        // The claimed holder's document read: the other one, unread, changes nothing.
        expect(await readApplicantMrz(pixels, ocr, NOW, claim(SPECIMEN_HOLDER))).toMatchObject({ mrz: { format: 'TD3' }, otherDocument: null });
      });

      it('doubts the number when the two readings are one holder, format and dates under two numbers (one document read two ways)', async () => {
        const { pixels } = await scene();
        const misread = { ...SPECIMEN_HOLDER, documentNumber: other.documentNumber };
        const ocr = linesEngine((image) =>
          image.height > 200 ? [] : image.width > 340 && image.width < 470 ? composeTd3(SPECIMEN_HOLDER) : image.width < 340 ? composeTd3(misread) : [],
        );
        const { mrz } = await readApplicantMrz(pixels, ocr, NOW, claim(SPECIMEN_HOLDER));
        expect(mrz).toMatchObject({ valid: true, uncertainCharacters: ['documentNumber'] });
      });

      it('reads one document as before: no second region, no other document', async () => {
        const page = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 460 }).png().toBuffer();
        const pixels = await onTable([{ input: page, left: 300, top: 250 }]);
        const { ocr } = await scene();
        expect(await readApplicantMrz(pixels, ocr, NOW, claim(other))).toMatchObject({
          mrz: { format: 'TD3', documentNumber: SPECIMEN_HOLDER.documentNumber },
          otherDocument: null,
        });
      });
    });

    it('reads the image again only for an invalid first read, and only at the unread place', async () => {
      const pixels = { data: new Uint8Array(300 * 200 * 3), width: 300, height: 200 };
      /** An OCR engine that reads `lines` from any band, and '6' wherever it is asked for a digit (recorded). */
      const ocrReading = (lines: string[]) => {
        const digitBoxes: Box[] = [];
        const engine: OcrEngine = {
          readMrzBand: async () => ({
            text: lines.join('\n'),
            lines: lines.map((text, i) => ({ text, box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 10 * text.length, y1: 40 + 40 * i } })),
          }),
          readDigit: async (_pixels, _band, _width, box) => (digitBoxes.push(box), '6'),
          readCharacter: async () => {
            throw new Error('no character boxes: nothing to read alone');
          },
          readText: async () => '',
          readPrintedBand: async () => [],
          close: async () => undefined,
        };
        return { engine, digitBoxes };
      };
      const plain = ocrReading(td1);
      expect(await readMrzFromImage(pixels, plain.engine, NOW)).toMatchObject({ valid: true, corrections: [] });
      expect(plain.digitBoxes).toEqual([]);
      const unread = ocrReading(withLine(td1, 1, td1[1]!.slice(0, 29) + '<'));
      expect(await readMrzFromImage(pixels, unread.engine, NOW)).toMatchObject({ valid: true, corrections: ['compositeCheckDigit'] });
      expect(unread.digitBoxes).toHaveLength(1);
      expect(unread.digitBoxes[0]!.x0).toBeCloseTo(10 + 28.85 * 10);
    });

    /** OCR lines with a character box for each character (pitch 10 from x 10), as tesseract gives them. */
    const boxedLines = (lines: string[]) =>
      lines.map((text, i) => ({
        text,
        box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 10 * text.length, y1: 40 + 40 * i },
        symbols: [...text].map((c, k) => ({ text: c, confidence: 97, box: { x0: 11 + 10 * k, y0: 12 + 40 * i, x1: 19 + 10 * k, y1: 38 + 40 * i } })),
      }));
    const engineOf = (lines: ReturnType<typeof boxedLines>, readDigit: OcrEngine['readDigit'], readCharacter: OcrEngine['readCharacter']): OcrEngine => ({
      readMrzBand: async () => ({ text: lines.map((l) => l.text).join('\n'), lines }),
      readDigit,
      readCharacter,
      readText: async () => '',
      readPrintedBand: async () => [],
      close: async () => undefined,
    });
    const pixels = { data: new Uint8Array(300 * 200 * 3), width: 300, height: 200 };
    /** Read alone, each box gives the character of `printed` at its place (boxedLines: pitch 10 from x 11, rows 40 apart). */
    const printedAlone = (printed: string[], overrides: Record<string, string | null> = {}): OcrEngine['readCharacter'] =>
      async (_p, _b, _w, box) => {
        const [line, index] = [Math.round((box.y0 + 0.15 * 26 - 12) / 40), Math.round((box.x0 + 0.15 * 8 - 11) / 10)];
        const key = `${line}:${index}`;
        return key in overrides ? overrides[key]! : printed[line]![index]!;
      };
    const noDigit: OcrEngine['readDigit'] = async () => null;

    it('reads a lost check digit again at the cell the characters give when the line box misplaces it, as a repair', async () => {
      // The composite was dropped and the data line's box runs over specks of noise 200 px to the left: from the
      // line box the cell lies far from the glyph, which is read only where the characters' boxes put it.
      const lines = boxedLines(withLine(td1, 1, td1[1]!.slice(0, 29)));
      lines[1] = { ...lines[1]!, box: { ...lines[1]!.box, x0: lines[1]!.box.x0 - 200 } };
      const asked: { x: number; denoise: boolean }[] = [];
      const readDigit: OcrEngine['readDigit'] = async (_p, _b, _w, box, denoise = false) => {
        const x = (box.x0 + box.x1) / 2;
        asked.push({ x, denoise });
        return Math.abs(x - (10 + 29.5 * 10)) < 3 ? '6' : null;
      };
      const reading = await readMrzFromImage(pixels, engineOf(lines, readDigit, async () => null), NOW);
      expect(reading).toMatchObject({ valid: true, documentNumber: 'D23145890', checkDigitRepairs: ['compositeCheckDigit'] });
      expect(reading!.corrections).not.toContain('compositeCheckDigit');
      // The line box's cell (plain, then without speckle), then the characters' cell.
      expect(asked.slice(0, 3).map((a) => a.denoise)).toEqual([false, true, false]);
      // Read at the line box's cell, the same digit is a correction as before (the composite: every field it covers
      // has its own check digit).
      const plain = await readMrzFromImage(pixels, engineOf(boxedLines(withLine(td1, 1, td1[1]!.slice(0, 29))), readDigit, async () => null), NOW);
      expect(plain).toMatchObject({ valid: true, corrections: ['compositeCheckDigit'], checkDigitRepairs: [] });
    });

    it('reads a valid number\'s characters with a look-alike again alone among them, and sends it to review when one reads as a look-alike that holds', async () => {
      const visa = composeMrz('MRVB', { ...SPECIMEN_HOLDER, documentNumber: 'ZKENUAEGE', issuingState: 'UTO', nationality: 'UTO' });
      const lines = boxedLines(visa);
      const asked: string[] = [];
      const alone = (answer: (alphabet: string) => string | null): OcrEngine['readCharacter'] =>
        async (_p, _b, _w, box, alphabet) => (asked.push(`${Math.round(box.x0)}:${alphabet}`), answer(alphabet));
      const noDigit: OcrEngine['readDigit'] = async () => null;
      const misread = await readMrzFromImage(pixels, engineOf(lines, noDigit, alone((a) => (a === 'G6' ? '6' : null))), NOW);
      expect(misread).toMatchObject({ valid: true, documentNumber: 'ZKENUAEGE', uncertainCharacters: ['documentNumber'] });
      // Its Z, U, A and G, each at its own box (and a margin), with only itself and its look-alikes allowed (the
      // name's K and S, read alone as themselves or '<', after them).
      const at = (index: number) => Math.round(11 + 10 * index - 0.15 * 8);
      const numberAsked = () => asked.filter((a) => !a.endsWith('<'));
      expect(numberAsked()).toEqual([`${at(0)}:Z27`, `${at(4)}:U0`, `${at(5)}:A4`, `${at(7)}:G6`]);
      asked.length = 0;
      const believed = await readMrzFromImage(pixels, engineOf(lines, noDigit, alone((a) => a[0]!)), NOW);
      expect(believed).toMatchObject({ valid: true, uncertainCharacters: [] });
      asked.length = 0;
      const none = composeMrz('MRVB', { ...SPECIMEN_HOLDER, documentNumber: 'XKENHMEX3', issuingState: 'UTO', nationality: 'UTO' });
      expect(await readMrzFromImage(pixels, engineOf(boxedLines(none), noDigit, alone(() => '6')), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
      expect(numberAsked()).toEqual([]);
    });

    it('sends to review a number read plainly whose two look-alikes cancel in every check digit when its characters read alone say so', async () => {
      // Generated TD2 (seed 8821, shear): 5R3Y8M3ZB read SR3YBM3ZB in one confident look (5 as S under weight 7, 8 as B
      // under weight 3): valid in the line, no repair. Read alone among their look-alikes, the S reads 5 and the B 8.
      const printed = composeMrz('TD2', { ...SPECIMEN_HOLDER, documentNumber: '5R3Y8M3ZB' });
      const lines = boxedLines([printed[0]!, printed[1]!.replace('5R3Y8', 'SR3YB')]);
      // A single-character pass reads only the characters it is allowed: the printed one when among them.
      const withinAlphabet = (read: OcrEngine['readCharacter']): OcrEngine['readCharacter'] => async (p, b, w, box, alphabet) => {
        const character = await read(p, b, w, box, alphabet);
        return character !== null && alphabet.includes(character) ? character : null;
      };
      const misread = await readMrzFromImage(pixels, engineOf(lines, noDigit, withinAlphabet(printedAlone(printed))), NOW);
      expect(misread).toMatchObject({ valid: true, documentNumber: 'SR3YBM3ZB', checkDigitRepairs: [], uncertainCharacters: ['documentNumber'] });
      // The same glyphs read alone as the line read them: a plain read, as before.
      const asRead = lines.map((line) => line.text);
      expect(await readMrzFromImage(pixels, engineOf(lines, noDigit, withinAlphabet(printedAlone(asRead))), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
    });

    it('reads a number not read plainly again alone, character by character, and takes what the image says', async () => {
      // Generated TD2 (seed 3187): UG9D0GTD7 read UG9DOGTD7, taken as 0 (a correction) only when read alone so too.
      const card = ['I<DEUMUELLER<<CHIDI<<<<<<<<<<<<<<<<<', 'UG9D0GTD73DEU5308055F301014947083206'];
      const read = boxedLines([card[0]!, card[1]!.replace('UG9D0', 'UG9DO')]);
      const confirmed = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(card)), NOW);
      expect(confirmed).toMatchObject({ valid: true, documentNumber: 'UG9D0GTD7', corrections: ['documentNumber'], checkDigitRepairs: [] });
      // Read alone as O where the reading has 0 is the ambiguity zerosOnly settles: confirmed.
      const aloneO = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(card, { '1:4': 'O' })), NOW);
      expect(aloneO).toMatchObject({ valid: true, corrections: ['documentNumber'], checkDigitRepairs: [] });
      const doubts: Record<string, string | null>[] = [{ '1:4': 'D' }, { '1:4': null }, { '1:1': '6' }];
      for (const alone of doubts) {
        const doubted = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(card, alone)), NOW);
        expect(doubted, JSON.stringify(alone)).toMatchObject({ valid: true, documentNumber: 'UG9D0GTD7', corrections: [], checkDigitRepairs: ['documentNumber'] });
      }
      // Generated MRV-B (seed 3187): TBH9T0ZU0 with its 9 read as I, which the visa's one check digit "repairs" as J
      // (19 and 9 weigh the same in every check digit): valid but wrong, in review. Alone, the 9 reads 9.
      const visa = composeMrz('MRVB', { ...SPECIMEN_HOLDER, documentNumber: 'TBH9T0ZU0' });
      const misread = boxedLines([visa[0]!, visa[1]!.replace('TBH9', 'TBHI')]);
      expect(readMrz(misread.map((l) => l.text).join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'TBHJT0ZU0' });
      const reread = await readMrzFromImage(pixels, engineOf(misread, noDigit, printedAlone(visa)), NOW);
      expect(reread).toMatchObject({ valid: true, documentNumber: 'TBH9T0ZU0', checkDigitRepairs: ['documentNumber'] });
      // Read alone as something that does not hold: the reading stays the check digit's choice, in review.
      const unhelpful = await readMrzFromImage(pixels, engineOf(misread, noDigit, printedAlone(visa, { '1:3': 'X' })), NOW);
      expect(unhelpful).toMatchObject({ valid: true, documentNumber: 'TBHJT0ZU0', checkDigitRepairs: ['documentNumber'] });
      // Under a composite, a number repaired by its check digit (J read as I) and read alone in full as it holds is a
      // plain read by those passes: a correction. One character not read alone leaves it a repair.
      const td2 = composeMrz('TD2', { ...SPECIMEN_HOLDER, documentNumber: 'TZKJPMW11' });
      const jAsI = boxedLines([td2[0]!, td2[1]!.replace('TZKJ', 'TZKI')]);
      expect(readMrz(jAsI.map((l) => l.text).join('\n'), NOW)).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11', checkDigitRepairs: ['documentNumber'] });
      const inFull = await readMrzFromImage(pixels, engineOf(jAsI, noDigit, printedAlone(td2)), NOW);
      expect(inFull).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11', corrections: ['documentNumber'], checkDigitRepairs: [] });
      const partly = await readMrzFromImage(pixels, engineOf(jAsI, noDigit, printedAlone(td2, { '1:0': null })), NOW);
      expect(partly).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11', corrections: [], checkDigitRepairs: ['documentNumber'] });
      // Its check digit 6 read as G as well: a check digit read as a letter stays a repair, read alone or not.
      const letterCheck = boxedLines([td2[0]!, td2[1]!.replace('TZKJPMW116', 'TZKIPMW11G')]);
      const withLetter = await readMrzFromImage(pixels, engineOf(letterCheck, noDigit, printedAlone(td2)), NOW);
      expect(withLetter).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11' });
      expect(withLetter!.checkDigitRepairs).toContain('documentNumber');
      // A number failing its check digit (two characters misread) is read alone as well.
      const failing = boxedLines([visa[0]!, visa[1]!.replace('TBH9T', 'TBHI7')]);
      expect(readMrz(failing.map((l) => l.text).join('\n'), NOW)?.valid).toBe(false);
      const recovered = await readMrzFromImage(pixels, engineOf(failing, noDigit, printedAlone(visa)), NOW);
      expect(recovered).toMatchObject({ valid: true, documentNumber: 'TBH9T0ZU0', checkDigitRepairs: ['documentNumber'] });
    });

    it('never takes a number read alone as a plain read where the line and the characters read alone disagree on a pair no check digit tells apart', async () => {
      // J read as I in the line (repaired by the check digit), and read alone the J right but the 6 as G: G and 6 weigh
      // the same, so the number holds with either; the check digits cannot say which pass read that place right.
      for (const format of ['TD2', 'TD3', 'TD1'] as const) {
        const printed = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'TZKJP6W11' });
        const [line, start] = format === 'TD1' ? [0, 5] : [1, 0];
        const read = boxedLines(printed.map((text, i) => (i === line ? text.replace('TZKJ', 'TZKI') : text)));
        const reading = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(printed, { [`${line}:${start + 5}`]: 'G' })), NOW);
        expect(reading, format).toMatchObject({ valid: true, corrections: [] });
        expect(reading!.checkDigitRepairs, format).toContain('documentNumber');
      }
    });

    it('never takes a number read alone as a plain read when its check digit read alone is not the one the line read', async () => {
      // The check digit 7 read as 2 (off by 5) and a 3 read alone as 8: 5 times any weight is 5 modulo 10, so the
      // wrong number holds the misread check digit, and the composite holds too (8 × 5 apart); alone the check digit
      // reads 7, so the two passes disagree on it and nothing is a plain read.
      const printed = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'AB3456789' });
      expect(printed[1]!.slice(0, 10)).toBe('AB34567897');
      const read = boxedLines([printed[0]!, printed[1]!.replace('AB34567897', 'AB34567892')]);
      const reading = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(printed, { '1:2': '8' })), NOW);
      expect(reading === null || !reading.valid || reading.checkDigitRepairs.includes('documentNumber')).toBe(true);
      // The same with look-alikes: a letter O read alone as 9 (15 apart) and the check digit 7 read as 2.
      const withO = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'AB3O56789' });
      expect(withO[1]!.slice(0, 10)).toBe('AB3O567897');
      const oRead = boxedLines([withO[0]!, withO[1]!.replace('AB3O567897', 'AB3O567892')]);
      const oReading = await readMrzFromImage(pixels, engineOf(oRead, noDigit, printedAlone(withO, { '1:3': '9' })), NOW);
      expect(oReading === null || !oReading.valid || oReading.checkDigitRepairs.includes('documentNumber')).toBe(true);
    });

    it('keeps a visa number read alone in full a repair: no composite confirms its check digit', async () => {
      for (const format of ['MRVA', 'MRVB'] as const) {
        const printed = composeMrz(format, { ...SPECIMEN_HOLDER, documentNumber: 'TZKJPMW11' });
        const read = boxedLines([printed[0]!, printed[1]!.replace('TZKJ', 'TZKI')]);
        const reading = await readMrzFromImage(pixels, engineOf(read, noDigit, printedAlone(printed)), NOW);
        expect(reading, format).toMatchObject({ valid: true, documentNumber: 'TZKJPMW11', corrections: [], checkDigitRepairs: ['documentNumber'] });
      }
    });

    it('never passes plainly a number whose line and single-character reads disagree on characters that are no look-alikes', async () => {
      // Tampered: the printed 8 changed to 3, the check digits left as they were. The line reads the 3 and fails; a
      // single-character pass reading that 3 as 8 would bring back a number that holds: the two passes saw different
      // glyphs, which a changed character also gives, so that is no plain read.
      const genuine = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'TZK8PMW31' });
      const tampered = [genuine[0]!, genuine[1]!.replace('TZK8', 'TZK3')];
      expect(readMrz(tampered.join('\n'), NOW)?.valid).toBe(false);
      const reading = await readMrzFromImage(pixels, engineOf(boxedLines(tampered), noDigit, printedAlone(tampered, { '1:3': '8' })), NOW);
      expect(reading === null || !reading.valid || reading.checkDigitRepairs.includes('documentNumber')).toBe(true);
    });

    it('judges the characters of whatever reading it returns, read plainly or rebuilt from character cells', async () => {
      const pixels = { data: new Uint8Array(300 * 200 * 3), width: 300, height: 200 };
      const PITCH = 30;
      /** An OCR line over `text` whose characters are read at 95, those at `low` at 60; `split` cells read as two glyphs. */
      const line = (text: string, top: number, low: number[] = [], split: Record<number, string> = {}): BandText['lines'][number] => {
        const symbols: OcrSymbol[] = [...text].flatMap((c, i) => {
          const box = { x0: 10 + i * PITCH, y0: top, x1: 10 + (i + 1) * PITCH - 6, y1: top + 40 };
          const symbol = { text: c, confidence: low.includes(i) ? 60 : 95, box };
          if (!(i in split)) return [symbol];
          return [{ ...symbol, box: { ...box, x1: box.x0 + 12 } }, { text: split[i]!, confidence: 40, box: { ...box, x0: box.x0 + 12 } }];
        });
        return { text: symbols.map((s) => s.text).join(''), box: { x0: 10, y0: top, x1: 10 + text.length * PITCH, y1: top + 40 }, symbols };
      };
      const band = (lines: BandText['lines']): BandText => ({ text: lines.map((l) => l.text).join('\n'), lines });
      /** An engine that reads `first` from the first band it is asked for and `rest` from every other one. */
      const engine = (first: BandText, rest: BandText): OcrEngine => {
        let calls = 0;
        return {
          readMrzBand: async () => (calls++ === 0 ? first : rest),
          readDigit: async () => null,
          // Read alone, every cell reads nothing: only the first pass's confidences judge here.
          readCharacter: async () => null,
          readText: async () => '',
          readPrintedBand: async () => [],
          close: async () => undefined,
        };
      };
      // X60418916 printed, read XG0418916: every check digit holds.
      const mrz = composeMrz('TD3', { ...SPECIMEN_HOLDER, documentNumber: 'X60418916' }).map((l) => l.replace('X60418916', 'XG0418916'));
      const empty: BandText = { text: '', lines: [] };
      // The bottom band read nothing; the whole page reads the printed number, confident, above the MRZ.
      const page = (low: number[]) => band([line('PASSPORTNOXG0418916', 0), line(mrz[0]!, 100), line(mrz[1]!, 160, low)]);
      expect(await readMrzFromImage(pixels, engine(empty, page([1])), NOW)).toMatchObject({ valid: true, uncertainCharacters: ['documentNumber'] });
      expect(await readMrzFromImage(pixels, engine(empty, page([])), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
      // Two glyphs of the name line split in two: its text reads invalid, its character cells valid.
      const cells = (low: number[]) => band([line(mrz[0]!, 0, [], { 3: 'J', 8: 'S' }), line(mrz[1]!, 60, low)]);
      expect(readMrz(cells([1]).text, NOW)?.valid).toBe(false);
      const rebuilt = await readMrzFromImage(pixels, engine(cells([1]), cells([1])), NOW);
      expect(rebuilt).toMatchObject({ valid: true, documentNumber: 'XG0418916', checkDigitRepairs: [], uncertainCharacters: ['documentNumber'] });
      expect(await readMrzFromImage(pixels, engine(cells([]), cells([])), NOW)).toMatchObject({ valid: true, uncertainCharacters: [] });
    });

    it("reads a name's or document code's K, L, C and S again alone, as itself or '<', and takes OCR-B's '<' read as such letters for fillers", async () => {
      const printed = ['P<IRLDUBOIS<<JEAN<PIERRE<<<<<<<<<<<<<<<<<<<<', '0VK67ZYFK4IRL8809195F3308165<<<<<<<<<<<<<<<2'];
      // The '<' between the given names read as K (its own cell), the separator as `<K<K` (the chevron read as two
      // glyphs, `<K`, within each cell); the name's own letters read alone are themselves.
      const glued = boxedLines([printed[0]!.replace('JEAN<', 'JEANK'), printed[1]!]);
      const asked: string[] = [];
      const alone = (fillerAt: (box: Box) => boolean): OcrEngine['readCharacter'] => async (_p, _b, _w, box, alphabet) => {
        asked.push(alphabet);
        return fillerAt(box) ? '<' : alphabet[0]!;
      };
      const atK = (box: Box) => Math.abs(box.x0 - (11 + 10 * 'P<IRLDUBOIS<<JEAN'.length)) < 3;
      const corrected = await readMrzFromImage(pixels, engineOf(glued, noDigit, alone(atK)), NOW);
      expect(corrected).toMatchObject({ valid: true, firstName: 'JEAN PIERRE', documentNumber: '0VK67ZYFK' });
      // No check digit confirms a name: the field changed is marked corrected (an mrz_corrected signal), the others not.
      expect(corrected?.corrections).toEqual(['firstName']);
      // DUBOIS's S too, read alone as itself.
      expect(asked).toEqual(['S<', 'K<']);
      // Read alone as K again, the K stays: the name is as the line read it.
      expect(await readMrzFromImage(pixels, engineOf(glued, noDigit, alone(() => false)), NOW)).toMatchObject({ valid: true, firstName: 'JEANKPIERRE', corrections: [] });
      // The document code's filler read as K.
      const coded = boxedLines([printed[0]!.replace('P<', 'PK'), printed[1]!]);
      const atCodeK = (box: Box) => Math.abs(box.x0 - 11 - 10) < 3;
      expect(await readMrzFromImage(pixels, engineOf(coded, noDigit, alone(atCodeK)), NOW)).toMatchObject({ valid: true, documentCode: 'P', corrections: ['documentCode'] });
      expect(await readMrzFromImage(pixels, engineOf(coded, noDigit, alone(() => false)), NOW)).toMatchObject({ valid: true, documentCode: 'PK' });
      // A compound surname's '<' read as two glyphs, `SK`, within one cell: one filler, not the `<<` before given names.
      const compound = 'P<IRLDUBOISSKMARTIN<<JEAN<PIERRE<<<<<<<<<<<<';
      const twoGlyphs = boxedLines([compound, printed[1]!]);
      const symbols = twoGlyphs[0]!.symbols.map((symbol, k) => {
        const cell = k <= 11 ? k : k - 1;
        const x0 = 11 + 10 * cell + (k === 12 ? 4 : 0);
        return { ...symbol, box: { ...symbol.box, x0, x1: k === 11 || k === 12 ? x0 + 4 : x0 + 8 } };
      });
      const atSK = (box: Box) => symbols.some((s, k) => (k === 11 || k === 12) && Math.abs(s.box.x0 - 0.15 * 4 - box.x0) < 0.5);
      expect(await readMrzFromImage(pixels, engineOf([{ ...twoGlyphs[0]!, symbols }, twoGlyphs[1]!], noDigit, alone(atSK)), NOW)).toMatchObject({
        valid: true,
        lastName: 'DUBOIS MARTIN',
        firstName: 'JEAN PIERRE',
      });
    });

    it("takes a K sharing the cell of the separator's last '<' for that '<' read as two glyphs, and keeps a K in a cell of its own", async () => {
      const second = '0VK67ZYFK4IRL8809195F3308165<<<<<<<<<<<<<<<2';
      // Dev seed 6607 (OCR-B, sheared): `SILVA<<SOFIA` read `SILVA<K<KSOFIA`, each '<' of the separator as two glyphs
      // `<K`, half a cell each; the first K read alone is '<', the second (glued to SOFIA) K again.
      const halves = (printed: string, read: string, split: number[]) => {
        const [line] = boxedLines([read, second]);
        let cell = 0;
        let leftHalfPlaced = false;
        const symbols = line!.symbols.map((symbol) => {
          const half = split.includes(cell) ? (leftHalfPlaced ? 'right' : 'left') : null;
          const x0 = 11 + 10 * cell + (half === 'right' ? 4 : 0);
          const box = { ...symbol.box, x0, x1: half === null ? x0 + 8 : x0 + 4 };
          leftHalfPlaced = half === 'left';
          if (half !== 'left') cell++;
          return { ...symbol, box };
        });
        expect(cell).toBe(printed.length);
        return [{ ...line!, symbols }, boxedLines([second])[0]!];
      };
      const alone = (fillerCentre: number): OcrEngine['readCharacter'] => async (_p, _b, _w, box, alphabet) =>
        Math.abs((box.x0 + box.x1) / 2 - fillerCentre) < 1 ? '<' : alphabet[0]!;
      const printed = 'P<FRASILVA<<SOFIA<<<<<<<<<<<<<<<<<<<<<<<<<<<';
      const split = halves(printed, 'P<FRASILVA<K<KSOFIA<<<<<<<<<<<<<<<<<<<<<<<<<<<', [10, 11]);
      expect(await readMrzFromImage(pixels, engineOf(split, noDigit, alone(11 + 100 + 6)), NOW)).toMatchObject({ valid: true, lastName: 'SILVA', firstName: 'SOFIA' });
      // KARL's K in a cell of its own after the separator read `<K<` (its first '<' as two glyphs) stays a letter.
      const karl = halves('P<FRASILVA<<KARL<<<<<<<<<<<<<<<<<<<<<<<<<<<<', 'P<FRASILVA<K<KARL<<<<<<<<<<<<<<<<<<<<<<<<<<<<', [10]);
      expect(await readMrzFromImage(pixels, engineOf(karl, noDigit, alone(11 + 100 + 6)), NOW)).toMatchObject({ valid: true, lastName: 'SILVA', firstName: 'KARL' });
      // A '<' between given names read `<K`, both glyphs read alone as themselves (dev seed 6607: ANNA<KMARIA): the K shares
      // the '<''s cell. ANNA<KARL's K has a cell of its own.
      const maria = halves('P<FRASILVA<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<<<', 'P<FRASILVA<<ANNA<KMARIA<<<<<<<<<<<<<<<<<<<<<<', [16]);
      expect(await readMrzFromImage(pixels, engineOf(maria, noDigit, alone(0)), NOW)).toMatchObject({ valid: true, lastName: 'SILVA', firstName: 'ANNA MARIA' });
      const annaKarl = halves('P<FRASILVA<<ANNA<KARL<<<<<<<<<<<<<<<<<<<<<<<', 'P<FRASILVA<<ANNA<KARL<<<<<<<<<<<<<<<<<<<<<<<', []);
      expect(await readMrzFromImage(pixels, engineOf(annaKarl, noDigit, alone(0)), NOW)).toMatchObject({ valid: true, lastName: 'SILVA', firstName: 'ANNA KARL' });
    });

    it("keeps a name's first letter and a stretch of fillers read as such when other letters are read alone as '<'", async () => {
      const second = '0VK67ZYFK4IRL8809195F3308165<<<<<<<<<<<<<<<2';
      const alone = (fillerAt: (box: Box) => boolean): OcrEngine['readCharacter'] => async (_p, _b, _w, box, alphabet) => (fillerAt(box) ? '<' : alphabet[0]!);
      const cellOf = (box: Box) => Math.round((box.x0 - 11) / 10);
      // KLAUS's K read alone as '<' (a real letter whose stem the single pass missed): a name never starts with a filler.
      const klaus = boxedLines(['P<IRLKLAUS<<CSABA<<<<<<<<<<<<<<<<<<<<<<<<<<', second]);
      expect(await readMrzFromImage(pixels, engineOf(klaus, noDigit, alone((box) => cellOf(box) === 5)), NOW)).toMatchObject({ valid: true, lastName: 'KLAUS', firstName: 'CSABA' });
      // The separator `<<` read as fillers with narrow boxes (a span under two cells) while JEAN's K is read alone as '<':
      // the separator keeps its two fillers, so the given names stay given names.
      const glued = boxedLines(['P<IRLDUBOIS<<JEANKPIERRE<<<<<<<<<<<<<<<<<<<<', second]);
      const narrow = glued[0]!.symbols.map((symbol, k) => (k === 11 || k === 12 ? { ...symbol, box: { ...symbol.box, x0: symbol.box.x0 + 3, x1: symbol.box.x0 + 5 } } : symbol));
      expect(await readMrzFromImage(pixels, engineOf([{ ...glued[0]!, symbols: narrow }, glued[1]!], noDigit, alone((box) => cellOf(box) === 17)), NOW)).toMatchObject({
        valid: true,
        lastName: 'DUBOIS',
        firstName: 'JEAN PIERRE',
      });
    });

    it("reads a short name's letters alone when OCR-B's filler tail came out as letters, and drops the K the separator's '<' was split into", async () => {
      // As tesseract read an OCR-B TD3 (round 14, dev seed 4637): the second '<' of `<<` read as `<` plus a K in the same
      // cell, the 26 tail fillers as 28 K and L. The line then shares under half its characters with the reading.
      const [, data] = composeTd3({ ...SPECIMEN_HOLDER, surname: 'OKAFOR', givenNames: 'OLGA' });
      const [name, second] = boxedLines(['P<SWEOKAFOR<<KOLGAKKLLLLLLLLLLLLLLLLLLLLKKLKKL', data!]);
      const symbols = name!.symbols.map((symbol, k) => {
        const x0 = k === 13 ? 11 + 10 * 12 + 4 : 11 + 10 * (k < 13 ? k : k - 1);
        return { ...symbol, box: { ...symbol.box, x0, x1: x0 + 8 } };
      });
      const kInFiller = (box: Box) => Math.abs(box.x0 + 0.15 * 8 - (11 + 10 * 12 + 4)) < 0.5;
      const alone: OcrEngine['readCharacter'] = async (_p, _b, _w, box, alphabet) => (kInFiller(box) ? '<' : alphabet[0]!);
      const read = await readMrzFromImage(pixels, engineOf([{ ...name!, symbols }, second!], noDigit, alone), NOW);
      expect(read).toMatchObject({ valid: true, lastName: 'OKAFOR', firstName: 'OLGA', corrections: ['firstName'] });
      // Read alone as K again, the K still shares the '<''s cell: the second glyph of that '<' (round 20; until then it
      // stayed, and dev seed 6607 read KOLGA, KSOFIA, KLUCAS so). A K in a cell of its own stays (OLGA's own first letter
      // would: see the KARL case above).
      const asRead = await readMrzFromImage(pixels, engineOf([{ ...name!, symbols }, second!], noDigit, async (_p, _b, _w, _box, alphabet) => alphabet[0]!), NOW);
      expect(asRead).toMatchObject({ valid: true, lastName: 'OKAFOR', firstName: 'OLGA', corrections: ['firstName'] });
    });
  });

  it('returns null when there is no MRZ', () => {
    expect(readMrz('DRIVING LICENCE\n1. SMITH\n2. JOHN\n', NOW)).toBeNull();
  });

  it('expands two-digit years: births in the past, expiries around now', () => {
    expect(mrzDate('740812', 'birth', NOW)).toBe('1974-08-12');
    expect(mrzDate('100101', 'birth', NOW)).toBe('2010-01-01');
    expect(mrzDate('340315', 'expiry', NOW)).toBe('2034-03-15');
    expect(mrzDate('991231', 'expiry', NOW)).toBe('1999-12-31');
    expect(mrzDate('741332', 'birth', NOW)).toBeNull();
  });
});

describe('name comparison', () => {
  const mrzName = { firstName: 'ANNA MARIA', lastName: 'ERIKSSON' };

  it('matches regardless of case, accents and separators', () => {
    expect(compareNames({ firstName: 'Anna-Maria', lastName: 'Eriksson' }, mrzName).score).toBe(1);
    expect(compareNames({ firstName: 'anna maria', lastName: 'ériksson' }, mrzName).score).toBe(1);
  });

  it('accepts ICAO transliterations of national characters', () => {
    expect(compareNames({ firstName: 'Jürgen', lastName: 'Müller' }, { firstName: 'JUERGEN', lastName: 'MUELLER' }).score).toBe(1);
    expect(compareNames({ firstName: 'Jürgen', lastName: 'Müller' }, { firstName: 'JURGEN', lastName: 'MULLER' }).score).toBe(1);
    expect(compareNames({ firstName: 'Søren', lastName: 'Kierkegaard' }, { firstName: 'SOEREN', lastName: 'KIERKEGAARD' }).score).toBe(1);
  });

  it('romanises Cyrillic metadata before comparing', () => {
    const score = compareNames({ firstName: 'Анна Мария', lastName: 'Эрикссон' }, mrzName).score;
    expect(score).toBeGreaterThanOrEqual(0.85);
  });

  it('tolerates one OCR slip but not another person', () => {
    expect(compareNames({ firstName: 'Anna Maria', lastName: 'Eriksson' }, { firstName: 'ANNA MARIA', lastName: 'ERIKSS0N' }).score).toBeGreaterThan(0.85);
    expect(compareNames({ firstName: 'John', lastName: 'Smith' }, mrzName).score).toBeLessThan(0.5);
    expect(compareNames({ firstName: 'Anna Maria', lastName: 'Karlsson' }, mrzName).score).toBeLessThan(0.85);
  });

  it('accepts a name cut short by the MRZ line length', () => {
    const long = { firstName: 'Maximiliane Theodora', lastName: 'Oppenheimer-Wolkenstein' };
    expect(compareNames(long, { firstName: 'MAXIMILIANE THEO', lastName: 'OPPENHEIMER WOLKENSTEIN' }).score).toBeGreaterThanOrEqual(0.85);
  });

  it('finds a name in free text', () => {
    const text = 'Dear Ms Anna Maria Eriksson,\nyour statement for May';
    expect(findNameInText({ firstName: 'Anna Maria', lastName: 'Eriksson' }, text)).toBe(1);
    expect(findNameInText({ firstName: 'John', lastName: 'Smith' }, text)).toBeLessThan(0.7);
  });
});

describe('printed text', () => {
  it('finds dates in common formats and picks the latest past one', () => {
    const text = 'Issued 3 March 2026\nPeriod 2026-02-01 to 28/02/2026\nDue April 15, 2026\nNext reading 01.09.2026';
    const dates = findDates(text);
    expect(dates).toEqual(['2026-02-01', '2026-02-28', '2026-03-03', '2026-04-15', '2026-09-01']);
    expect(latestPastDate(dates, NOW)).toBe('2026-04-15');
  });

  it('finds an address line', () => {
    expect(findAddress('Statement\nStorgatan 12\n114 55 Stockholm')).toBe('Storgatan 12');
    expect(findAddress('Invoice\n221B Baker Street\nLondon NW1 6XE')).toBe('221B Baker Street');
    expect(findAddress('Invoice\nThank you for your custom')).toBeNull();
  });
});

describe('perceptual hash distance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('ffff000000000000', 'ffff000000000000')).toBe(0);
    expect(hammingDistance('ffff000000000000', 'fffe000000000001')).toBe(2);
    expect(() => hammingDistance('ff', 'ffff')).toThrow();
  });
});
