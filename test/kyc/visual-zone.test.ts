// The visual-zone comparison on its own: OCR lines (words, confidences, boxes) as tesseract gives them for a
// passport data page, against the MRZ reading. The engine and HTTP cases are in engine.test.ts and api.test.ts.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composeTd1, composeTd3, renderDocument, SPECIMEN_HOLDER } from '../../scripts/make-kyc-specimen.ts';
import { analyseImages } from '../../src/kyc/analyse.ts';
import type { FaceEngine } from '../../src/kyc/face.ts';
import { decodeImage, type RawPixels } from '../../src/kyc/intake.ts';
import { readMrz, type MrzReading } from '../../src/kyc/mrz.ts';
import type { OcrEngine } from '../../src/kyc/ocr.ts';
import { estimateSkew, findMrzRegions } from '../../src/kyc/skew.ts';
import { onTable, onTableImage, passportInLargePhoto } from './images.ts';
import { compareVisualZone, confirmedInPrint, impossibleDate, pageDateOrder, printedDates, readPrintedPage, type PrintedLine } from '../../src/kyc/visual-zone.ts';

/** The specimen holder's MRZ, read by the parser: ERIKSSON, ANNA MARIA, XA4186275, 1974-08-12, 2034-03-15. */
const MRZ: MrzReading = readMrz(composeTd3(SPECIMEN_HOLDER).join('\n'), new Date('2026-06-01T12:00:00Z'))!;

type Word = [text: string, left: number, confidence?: number, characters?: number[]];

/** A text line at `top`: words 20 px high, 12 px per character, read at confidence 95 unless given. */
function line(top: number, words: Word[]): PrintedLine {
  return words.map(([text, left, confidence = 95, characters]) => ({
    text,
    confidence,
    characters,
    box: { x0: left, y0: top, x1: left + 12 * text.length, y1: top + 20 },
  }));
}

/** The specimen page's visual zone: label lines, each followed by its values, in columns. */
function page(values: { number?: Word[]; surname?: Word[]; given?: Word[]; birth?: Word[]; expiry?: Word[]; personal?: Word[] } = {}): PrintedLine[] {
  return [
    line(10, [['PASSPORT', 40], ['PASS', 160], ['SPECIMEN', 240]]),
    line(100, [['Type', 430], ['/', 480], ['Typ', 495], ['Code', 600], ['/', 650], ['Kod', 665], ['Passport', 820], ['No.', 925], ['/', 965], ['Passnummer', 980]]),
    line(125, values.number ?? [['XA4186275', 820]]),
    line(180, [['Surname', 430], ['/', 525], ['Efternamn', 540]]),
    line(205, values.surname ?? [['ERIKSSON', 430]]),
    line(260, [['Given', 430], ['names', 500], ['/', 565], ['Förnamn', 580]]),
    line(285, values.given ?? [['ANNA', 430], ['MARIA', 490]]),
    line(340, [['Date', 430], ['of', 485], ['birth', 515], ['/', 580], ['Födelsedatum', 595], ['Personal', 900], ['No.', 1000]]),
    line(365, [...(values.birth ?? [['12', 430], ['AUG', 465], ['1974', 515]]), ...(values.personal ?? [['19740812-4425', 900]])]),
    line(420, [['Date', 430], ['of', 485], ['expiry', 515], ['/', 590], ['Giltig', 605], ['till', 685]]),
    line(445, values.expiry ?? [['15', 430], ['MAR', 465], ['2034', 515]]),
  ];
}

const ALL_MATCH = { documentNumber: 'match', surname: 'match', givenNames: 'match', birthDate: 'match', expiryDate: 'match' };
const ALL_UNREAD = { documentNumber: 'unread', surname: 'unread', givenNames: 'unread', birthDate: 'unread', expiryDate: 'unread' };

describe('printed dates', () => {
  it('reads the formats documents print, bilingual month names and look-alike digits included', () => {
    const august12 = { day: 12, month: 8 };
    for (const text of ['12 AUG 1974', '12 AUG/AOÛT 1974', '12 AUG / AOUT 1974', '12.08.1974', '12-08-1974', '1974-08-12', '12 août 1974', '12 AGO 1974', '12 AUG l974', '12.O8.1974']) {
      expect(printedDates(text), text).toContainEqual({ ...august12, year: '1974' });
    }
    expect(printedDates('12/08/74')).toEqual([{ ...august12, year: '74' }]);
    expect(printedDates('Date of birth / Födelsedatum')).toEqual([]);
    expect(printedDates('31 FOO 1974 · 44.13.1974')).toEqual([]);
  });
});

describe('compareVisualZone', () => {
  it('finds every MRZ value on a genuine page', () => {
    expect(MRZ).toMatchObject({ valid: true, documentNumber: 'XA4186275', lastName: 'ERIKSSON', birthDate: '1974-08-12', expiryDate: '2034-03-15' });
    expect(compareVisualZone(MRZ, page())).toEqual(ALL_MATCH);
  });

  it('accepts the variants print and OCR give: grouped numbers, look-alikes, accents, other date formats, a truncated MRZ name', () => {
    const variants = page({
      number: [['XA', 820], ['418', 860], ['6275', 910]],
      given: [['ANNA', 430], ['MARIA', 490], ['LOVISA', 570]],
      birth: [['12/08/74', 430]],
      expiry: [['I5.O3.2034', 430, 80]],
    });
    expect(compareVisualZone(MRZ, variants)).toEqual(ALL_MATCH);
    expect(compareVisualZone(MRZ, page({ number: [['XA4I86Z75', 820, 70]] })).documentNumber).toBe('match');
    const muller = { ...MRZ, lastName: 'MUELLER', firstName: 'JOSEPHINE CHRISTI' };
    const printed = page({ surname: [['MÜLLER', 430]], given: [['JOSÉPHINE', 430], ['CHRISTIANE', 560]] });
    expect(compareVisualZone(muller, printed)).toMatchObject({ surname: 'match', givenNames: 'match' });
    // MRZ names have no check digit: an O the MRZ reading took for a Q is still the printed name.
    expect(compareVisualZone({ ...MRZ, firstName: 'QLGA' }, page({ given: [['OLGA', 430]] })).givenNames).toBe('match');
  });

  it('flags a value clearly printed in the field’s place that is not the MRZ’s', () => {
    expect(compareVisualZone(MRZ, page({ number: [['XB7716275', 820]] }))).toEqual({ ...ALL_MATCH, documentNumber: 'mismatch' });
    expect(compareVisualZone(MRZ, page({ surname: [['LINDQVIST', 430]] }))).toEqual({ ...ALL_MATCH, surname: 'mismatch' });
    expect(compareVisualZone(MRZ, page({ given: [['KARIN', 430]] }))).toEqual({ ...ALL_MATCH, givenNames: 'mismatch' });
    // A name read badly on one side is no other name (SOFIA / SSOTA, a misread MRZ).
    expect(compareVisualZone({ ...MRZ, firstName: 'SSOTA' }, page({ given: [['SOFIA', 430]] })).givenNames).toBe('unread');
    expect(compareVisualZone(MRZ, page({ birth: [['12', 430], ['AUG', 465], ['1979', 515]] }))).toEqual({ ...ALL_MATCH, birthDate: 'mismatch' });
    expect(compareVisualZone(MRZ, page({ expiry: [['15.03.2036', 430]] }))).toEqual({ ...ALL_MATCH, expiryDate: 'mismatch' });
    // One character off is OCR noise unless read with near certainty.
    expect(compareVisualZone(MRZ, page({ number: [['XA4186975', 820, 98]] })).documentNumber).toBe('mismatch');
    expect(compareVisualZone(MRZ, page({ number: [['XA4186975', 820, 88]] })).documentNumber).toBe('match');
  });

  it('takes one character changed for print, not noise, when that character was read with near certainty', () => {
    const confidentNine = [98, 97, 99, 98, 96, 98, 98, 97, 98];
    const changed = page({ number: [['XA4186975', 820, 88, confidentNine]] });
    expect(compareVisualZone(MRZ, changed).documentNumber).toBe('mismatch');
    // The differing character read doubtfully: OCR noise.
    const doubtful = page({ number: [['XA4186975', 820, 88, [98, 97, 99, 98, 96, 98, 94, 97, 98]]] });
    expect(compareVisualZone(MRZ, doubtful).documentNumber).toBe('match');
    // Under a doubtful value (a word below confidence 85) it is unread, never a mismatch: the model reads this
    // font's 9 as O at a character confidence of 97 under words of 80.
    expect(compareVisualZone(MRZ, page({ number: [['XA4186975', 820, 80, confidentNine]] })).documentNumber).toBe('unread');
    // A 9 read as O is the model's own confident misreading: noise, whatever its confidence.
    const nine = { ...MRZ, documentNumber: 'XA4186279' };
    expect(compareVisualZone(nine, page({ number: [['XA418627O', 820, 88, confidentNine]] })).documentNumber).toBe('match');
    // Round 26: not under the number's label, or with no label at all (a small document's labels read as nothing),
    // the number changed in print is still itself: no other number comes that close to it by chance.
    const elsewhere = line(600, [['XA4186975', 40, 88, confidentNine]]);
    expect(compareVisualZone(MRZ, [...page({ number: [] }), elsewhere]).documentNumber).toBe('mismatch');
    const unlabelled = page({ number: [] }).filter((words) => !words.some((w) => w.text === 'Passport'));
    expect(compareVisualZone(MRZ, [...unlabelled, elsewhere]).documentNumber).toBe('mismatch');
    // A character added or lost is no change of one printed character.
    expect(compareVisualZone(MRZ, page({ number: [['XA41862755', 820, 88, [...confidentNine, 95]]] })).documentNumber).toBe('match');
  });

  it('calls a doubtful or unlabelled difference unread, never a mismatch', () => {
    const doubtful = page({
      number: [['XB7716275', 820, 60]],
      surname: [['LINDQVIST', 430, 70]],
      given: [['KARIN', 430, 50]],
      birth: [['12', 430], ['AUG', 465], ['1979', 515, 40]],
      expiry: [['~~', 430, 30]],
    });
    expect(compareVisualZone(MRZ, doubtful)).toEqual(ALL_UNREAD);
    // Another number on the page (the personal number has its own label) is not the document number.
    const unlabelled = page({ number: [] }).filter((words) => !words.some((w) => w.text === 'Passport'));
    expect(compareVisualZone(MRZ, unlabelled).documentNumber).toBe('unread');
    expect(compareVisualZone(MRZ, [])).toEqual(ALL_UNREAD);
  });

  it('does not take the MRZ lines, read by the general OCR, for the printed page', () => {
    const mrzOnly = [line(600, [['P<SWEERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 40]]), line(640, [['XA41862757SWE7408122F3403159<<<<<<<<<<<<<<06', 40]])];
    expect(compareVisualZone(MRZ, mrzOnly)).toEqual(ALL_UNREAD);
  });

  it('leaves the French card’s expiry unread: its MRZ holds none', () => {
    expect(compareVisualZone({ ...MRZ, format: 'FRA_ID' }, page()).expiryDate).toBe('unread');
  });

  it('reads the printed page of a document small in a photo from the document cut out, not the whole photo', async () => {
    // Round 21 review: the MRZ of a document at ~40 % of a photo's width is read from its region; its printed page,
    // read in the whole photo at the OCR scale, has ~7 px values that read as nothing, so a tampered page passed.
    for (const format of ['TD3', 'TD1'] as const) {
      const page = await sharp(await renderDocument(format, SPECIMEN_HOLDER)).resize({ width: 410 }).png().toBuffer();
      const { height = 0 } = await sharp(page).metadata();
      const [left, top] = [480, 260];
      const pixels = await onTable([{ input: page, left, top }]);
      const seen: RawPixels[] = [];
      const ocr = { readPrintedBand: async (image: RawPixels) => (seen.push(image), []) } as unknown as OcrEngine;
      await readPrintedPage(pixels, ocr);
      // The document (410 px wide, ~0.63–0.7 of that high) and some of the table: not the 1024×768 photo.
      expect(seen[0]!.width, format).toBeGreaterThanOrEqual(410);
      expect(seen[0]!.width, format).toBeLessThan(700);
      expect(seen[0]!.height, format).toBeGreaterThanOrEqual(height - 4);
      expect(seen[0]!.height, format).toBeLessThan(520);
    }
    // A page filling the photo is read whole, as before.
    const full = (await decodeImage('documentImage', await renderDocument('TD3', SPECIMEN_HOLDER))).pixels;
    const seen: RawPixels[] = [];
    await readPrintedPage(full, { readPrintedBand: async (image: RawPixels) => (seen.push(image), []) } as unknown as OcrEngine);
    expect(seen[0]!.width).toBe(full.width);
  });

  it('reads the MRZ and the printed page of a document small in a large photo from the upload at full resolution (round 27)', async () => {
    // A 4032×3024 phone photo, the passport at ~35 % of its width (~560 px in the 1600 px working copy, 1410 px
    // uploaded), lying turned 2.5°.
    const document = await passportInLargePhoto(2.5, 1800, 900);
    const pagesRead: RawPixels[] = [];
    const ocr: OcrEngine = {
      // The MRZ reads only at the upload's resolution (its region ~1250 px wide; ~500 px in the working copy).
      readMrzBand: async (image) => {
        const lines = image.width > 1000 && image.width < 1400 && image.height < 600 ? composeTd3(SPECIMEN_HOLDER) : [];
        return { text: lines.join('\n'), lines: lines.map((text, i) => ({ text, box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 10 * text.length, y1: 40 + 40 * i } })) };
      },
      readDigit: async () => null,
      readCharacter: async () => null,
      readText: async () => '',
      readPrintedBand: async (image) => (pagesRead.push(image), []),
      close: async () => undefined,
    };
    const noFaces: FaceEngine = { detect: async () => [], describe: async () => [], close: async () => undefined };
    const metadata = { firstName: SPECIMEN_HOLDER.givenNames, lastName: SPECIMEN_HOLDER.surname };
    const signals = await analyseImages({ documentType: 'passport', document, selfie: document, metadata, now: '2026-06-01T12:00:00Z' }, { ocr, face: noFaces });
    expect(signals.documentReading.mrz).toMatchObject({ valid: true, documentNumber: SPECIMEN_HOLDER.documentNumber });
    // The page cut out of the upload, straightened: the 1410 px document and some of the table, not its ~560 px in the working copy.
    expect(pagesRead).toHaveLength(1);
    expect(pagesRead[0]!.width).toBeGreaterThanOrEqual(1410);
    expect(pagesRead[0]!.width).toBeLessThan(2000);
    expect(Math.abs(estimateSkew(pagesRead[0]!))).toBeLessThan(1);
    // Its bytes are no signal.
    expect(signals.document).not.toHaveProperty('encoded');
  });
});

describe('a printed date no calendar has (round 23)', () => {
  it('knows the dates no calendar has, in every style documents print', () => {
    for (const text of ['31.13.1974', '14/15/74', '31 APR 1974', '31 APR/AVR 1974', '30 FEB 1974', '29.02.1975', '35.08.1974', '1974-13-12', '31.06.1974', '15/13/34']) {
      expect(impossibleDate(text), text).toBe(true);
    }
    for (const text of ['12.08.1974', '12/08/74', '30 APR 1974', '29 FEB 1976', '29/02/76', '31 DEC 1974', '1974-08-12', 'Date of birth', '44.13', '31 FOO 1974']) {
      expect(impossibleDate(text), text).toBe(false);
    }
    // Review: a date that is a date read month first (US cards: `Card Expires 12/31/29`, `08/25/1974`) or year first
    // (`74.08.12`) is printed so by some issuer; a day or month printed 00 is the unknown part some issuers print.
    for (const text of ['12.13.1974', '08/25/1974', '12/31/29', '02/29/1976', '74.08.12', '00.08.1974', '00.00.1980', '1980-00-00', '00 AUG 1974']) {
      expect(impossibleDate(text), text).toBe(false);
    }
  });

  it('flags a birth date clearly printed that no calendar has; a doubtful one stays unread', () => {
    // Until round 23 month 13 read as no date at all: unread, and a page changed by hand to it passed plainly.
    expect(compareVisualZone(MRZ, page({ birth: [['31.13.1974', 430]] }))).toEqual({ ...ALL_MATCH, birthDate: 'mismatch' });
    expect(compareVisualZone(MRZ, page({ birth: [['31', 430], ['APR', 465], ['1974', 515]] }))).toEqual({ ...ALL_MATCH, birthDate: 'mismatch' });
    expect(compareVisualZone(MRZ, page({ expiry: [['15/13/34', 430]] })).expiryDate).toBe('mismatch');
    // A birth date after the page's own expiry is another date than the MRZ's: a mismatch as before.
    expect(compareVisualZone(MRZ, page({ birth: [['12', 430], ['AUG', 465], ['2041', 515]] })).birthDate).toBe('mismatch');
    // Read doubtfully (a word under CONFIDENT_WORD), or not under the label: unread, never a mismatch.
    expect(compareVisualZone(MRZ, page({ birth: [['31.13.1974', 430, 70]] })).birthDate).toBe('unread');
    expect(compareVisualZone(MRZ, page({ birth: [], personal: [['31.13.1974', 900]] })).birthDate).toBe('unread');
    // Review: a genuine page printing its dates month first, as US cards do, is never a mismatch (round 26: its
    // dates, a part over 12 second, tell the order, and they match).
    const monthFirst = { ...MRZ, birthDate: '1974-08-25', expiryDate: '2034-03-15' };
    expect(compareVisualZone(monthFirst, page({ birth: [['08/25/1974', 430]], expiry: [['03/15/2034', 430]] }))).toMatchObject({ birthDate: 'match', expiryDate: 'match' });
    // The MRZ's date shown on the page: a match, whatever else is printed.
    expect(compareVisualZone(MRZ, page({ personal: [['31.13.1974', 900]] })).birthDate).toBe('match');
    // A leap day is a date.
    const leap = { ...MRZ, birthDate: '1976-02-29' };
    expect(compareVisualZone(leap, page({ birth: [['29.02.1976', 430]] })).birthDate).toBe('match');
    // compareVisualZone's word gate, lowered (as eval:kyc measures it), takes the doubtful read as read.
    expect(compareVisualZone(MRZ, page({ birth: [['31.13.1974', 430, 70]] }), 60).birthDate).toBe('mismatch');
  });
});

describe('a small document whose labels read as nothing (round 26)', () => {
  /** A label of a document small in a photo: ~4 px print, read as small low-confidence garble. */
  const garble = (top: number, left: number): PrintedLine => [
    { text: 'wt', confidence: 35, box: { x0: left, y0: top, x1: left + 20, y1: top + 7 } },
    { text: 'aves', confidence: 40, box: { x0: left + 30, y0: top, x1: left + 70, y1: top + 8 } },
  ];
  /** The specimen page as the OCR reads it at ~40 % of a 1024 px photo: values read, every label garbled. */
  function smallPage(values: { number?: Word[]; surname?: Word[]; given?: Word[]; birth?: Word[]; expiry?: Word[] } = {}): PrintedLine[] {
    return [
      line(10, [['PASSPORT', 40], ['PASS', 160], ['SPECIMEN', 240]]),
      garble(100, 820),
      line(112, values.number ?? [['XA4186275', 820]]),
      garble(140, 430),
      line(152, values.surname ?? [['ERIKSSON', 430]]),
      garble(180, 430),
      line(192, values.given ?? [['ANNA', 430], ['MARIA', 490]]),
      garble(220, 430),
      line(232, values.birth ?? [['12', 430], ['AUG', 465], ['1974', 515]]),
      garble(260, 430),
      line(272, values.expiry ?? [['15', 430], ['MAR', 465], ['2034', 515]]),
    ];
  }

  it('flags a number changed in one or two characters read with near certainty, wherever it stands', () => {
    expect(compareVisualZone(MRZ, smallPage())).toEqual(ALL_MATCH);
    const certain = [98, 98, 98, 98, 98, 98, 98, 98, 98];
    expect(compareVisualZone(MRZ, smallPage({ number: [['XB4186975', 820, 95, certain]] })).documentNumber).toBe('mismatch');
    // A changed character read doubtfully, three changed (another number), or a doubtful word: unread.
    expect(compareVisualZone(MRZ, smallPage({ number: [['XB4186975', 820, 95, [98, 94, 98, 98, 98, 98, 98, 98, 98]]] })).documentNumber).toBe('unread');
    expect(compareVisualZone(MRZ, smallPage({ number: [['XB4187975', 820, 95, certain]] })).documentNumber).toBe('unread');
    expect(compareVisualZone(MRZ, smallPage({ number: [['XB4186975', 820, 70, certain]] })).documentNumber).toBe('unread');
  });

  it('takes no name above the given names for the surname: genuine pages print other names there (review)', () => {
    // A surname not read (or misread) leaves no label to place it; the print right above the given names is another
    // name on genuine pages: a German birth name (`geb. GABLER`), a French usage name (`ép. DURAND`), the given names in
    // the issuer's own script (a Greek page read by the Latin model), the issuing authority in the same column.
    for (const above of [[['geb.', 430], ['GABLER', 490]], [['ep.', 430], ['DURAND', 480]], [['TEQPTIOZ', 430, 88]], [['PREZYDENT', 430], ['MIASTA', 560]]] as Word[][]) {
      const genuine = [
        line(10, [['PASSPORT', 40], ['PASS', 160], ['SPECIMEN', 240]]),
        garble(100, 820),
        line(112, [['XA4186275', 820]]),
        garble(140, 430),
        line(152, [['ERTKSZQN', 430, 60]]),
        line(180, above),
        garble(208, 430),
        line(220, [['ANNA', 430], ['MARIA', 490]]),
      ];
      expect(compareVisualZone(MRZ, genuine).surname, above.map((w) => w[0]).join(' ')).toBe('unread');
    }
  });

  it('flags the birth date printed with another year; an issue date on the same day and month as the expiry is no birth date', () => {
    expect(compareVisualZone(MRZ, smallPage({ birth: [['12', 430], ['AUG', 465], ['1979', 515]] }))).toEqual({ ...ALL_MATCH, birthDate: 'mismatch' });
    const late = { ...MRZ, birthDate: '1974-08-25' };
    expect(compareVisualZone(late, smallPage({ birth: [['25.08.1979', 430]] })).birthDate).toBe('mismatch');
    expect(compareVisualZone(late, smallPage({ birth: [['25.08.1979', 430, 70]] })).birthDate).toBe('unread');
    // A date read both ways (12.08: 12 August or 8 December) on a page that does not tell its order: unread.
    expect(compareVisualZone(MRZ, smallPage({ birth: [['12.08.1979', 430]] })).birthDate).toBe('unread');
    // Born on the day and month the document expires: its issue date shares them, another year.
    const birthday = { ...MRZ, birthDate: '1974-03-15' };
    const issued = smallPage({ birth: [['15', 430], ['MAR', 465], ['1974', 515]], expiry: [['15', 430], ['MAR', 465], ['2034', 515], ['15', 700], ['MAR', 735], ['2024', 785]] });
    expect(compareVisualZone(birthday, issued).birthDate).toBe('match');
    expect(compareVisualZone(birthday, smallPage({ birth: [['15', 430], ['MAR', 465], ['2024', 515]] })).birthDate).toBe('unread');
    // Review: a document that runs to the day before its issue day's anniversary (issued on the holder's birthday,
    // 12 AUG 2024, expiring 11 AUG 2034), the birth date itself unread: its issue date is no birth date.
    const dayBefore = { ...MRZ, expiryDate: '2034-08-11' };
    const issuedOnBirthday = smallPage({ birth: [['12', 430], ['AUG', 465], ['2024', 515]], expiry: [['11', 430], ['AUG', 465], ['2034', 515]] });
    expect(compareVisualZone(dayBefore, issuedOnBirthday).birthDate).toBe('unread');
    // Nor the birth date in another calendar beside it (the Buddhist era's 2517 is 1974): no birth year after expiry.
    expect(compareVisualZone(MRZ, smallPage({ birth: [['12', 430], ['AUG', 465], ['2517', 515]] })).birthDate).toBe('unread');
  });
});

describe('the order of an all-digit date (round 26)', () => {
  it('is told by the page\'s own dates, else by the issuer, else unknown', () => {
    expect(pageDateOrder('25.08.1974 15.03.2034', 'SWE')).toBe('day');
    expect(pageDateOrder('Card Expires 12/31/29', 'USA')).toBe('month');
    // Review: month first only where the issuer prints so; elsewhere a month-first date is read both ways.
    expect(pageDateOrder('Card Expires 12/31/29', 'SWE')).toBe('either');
    expect(printedDates('12/31/29', 'either')).toEqual([{ day: 31, month: 12, year: '29' }]);
    expect(pageDateOrder('08/05/1974', 'USA')).toBe('month');
    expect(pageDateOrder('08/05/1974', 'SWE')).toBe('either');
    expect(pageDateOrder('25.08.1974 08/25/1974', 'USA')).toBe('either');
    expect(printedDates('08/05/1974', 'month')).toEqual([{ day: 5, month: 8, year: '1974' }]);
    expect(printedDates('08/05/1974', 'either')).toEqual([{ day: 8, month: 5, year: '1974' }, { day: 5, month: 8, year: '1974' }]);
    expect(printedDates('08/05/1974 25/08/74', 'unambiguous')).toEqual([{ day: 25, month: 8, year: '74' }]);
  });

  it('reads a month-first birth date whose day is 12 or less as the page prints it: no false mismatch', () => {
    const fifthOfAugust = { ...MRZ, birthDate: '1974-08-05' };
    // Until round 26 read day first only: 8 May, another date than the MRZ's, a mismatch sending a genuine page to review.
    expect(compareVisualZone(fifthOfAugust, page({ birth: [['08/05/1974', 430]] })).birthDate).toBe('match');
    expect(compareVisualZone({ ...fifthOfAugust, issuingState: 'USA' }, page({ birth: [['08/05/1974', 430]] })).birthDate).toBe('match');
    // A page whose dates are day first (15.03.2034) reads 08/05 as 8 May: another date.
    expect(compareVisualZone(fifthOfAugust, page({ birth: [['08.05.1974', 430]], expiry: [['15.03.2034', 430]] })).birthDate).toBe('mismatch');
    // A month-13 twin whose day is 12 or less (round 23 review: unread) is read month first where nothing on the page
    // says otherwise: 13 December, another date. Beside a day-first expiry the page tells no order (review: read both
    // ways, it is still 13 December: a mismatch); a page whose dates are all day first reads it as no date: unread.
    expect(compareVisualZone(MRZ, page({ birth: [['12.13.1974', 430]] })).birthDate).toBe('mismatch');
    expect(compareVisualZone(MRZ, page({ birth: [['12.13.1974', 430]], expiry: [['15.03.2034', 430]] })).birthDate).toBe('mismatch');
    expect(compareVisualZone({ ...MRZ, expiryDate: '2034-03-25' }, page({ birth: [['12.13.1974', 430, 70]], expiry: [['25.03.2034', 430]] })).birthDate).toBe('unread');
  });

  it('does not let one date read month first turn a day-first page around (review)', () => {
    // A German page: 5 August 1974, issued 3 November 2019 (its 11 read 17 with confidence), expiring 2 November 2029.
    const german = { ...MRZ, issuingState: 'D', birthDate: '1974-08-05', expiryDate: '2029-11-02' };
    const issue = line(500, [['Date', 430], ['of', 485], ['issue', 515], ['03.17.2019', 700]]);
    const read = compareVisualZone(german, [...page({ birth: [['05.08.1974', 430]], expiry: [['02.11.2029', 430]] }), issue]);
    expect(read).toMatchObject({ birthDate: 'match', expiryDate: 'match' });
  });
});

describe('the printed page of the chosen document where the photo holds two (round 23)', () => {
  const other = { ...SPECIMEN_HOLDER, surname: 'OKAFOR', givenNames: 'CHIDI', documentNumber: 'K7M2P9X41', birthDate: '810302' };
  /** The other holder's card as the OCR reads its page. */
  const otherPage = () =>
    page({ number: [['K7M2P9X41', 820]], surname: [['OKAFOR', 430]], given: [['CHIDI', 430]], birth: [['02', 430], ['MAR', 465], ['1981', 515]], personal: [] });
  /**
   * The specimen holder's passport (460 px) and the other holder's ID card (330 px) side by side, the card's MRZ the
   * lower one (the page readPrintedPage reads by default). Each MRZ reads only from an image about its own size, and
   * each page only from the document cut out around its own MRZ (the passport's is the wider cut).
   */
  async function scene(passportPage: PrintedLine[]) {
    const passport = await sharp(await renderDocument('TD3', SPECIMEN_HOLDER)).resize({ width: 460 }).png().toBuffer();
    const idCard = await sharp(await renderDocument('TD1', other)).resize({ width: 330 }).png().toBuffer();
    const document = await onTableImage([{ input: idCard, left: 60, top: 380 }, { input: passport, left: 480, top: 200 }]);
    const pagesRead: number[] = [];
    const ocr: OcrEngine = {
      readMrzBand: async (image) => {
        const lines = image.height > 200 ? [] : image.width > 340 && image.width < 470 ? composeTd3(SPECIMEN_HOLDER) : image.width < 340 ? composeTd1(other) : [];
        return { text: lines.join('\n'), lines: lines.map((text, i) => ({ text, box: { x0: 10, y0: 10 + 40 * i, x1: 10 + 10 * text.length, y1: 40 + 40 * i } })) };
      },
      readDigit: async () => null,
      readCharacter: async () => null,
      readText: async () => '',
      readPrintedBand: async (image) => (pagesRead.push(image.width), image.width >= 480 && image.width < 700 ? passportPage : image.width < 480 ? otherPage() : []),
      close: async () => undefined,
    };
    return { document, ocr, pagesRead };
  }
  const noFaces: FaceEngine = { detect: async () => [], describe: async () => [], close: async () => undefined };
  const check = async ({ document, ocr }: Awaited<ReturnType<typeof scene>>, holder = SPECIMEN_HOLDER) =>
    analyseImages(
      { documentType: 'passport', document, selfie: document, metadata: { firstName: holder.givenNames, lastName: holder.surname }, now: '2026-06-01T12:00:00Z' },
      { ocr, face: noFaces },
    );

  it('finds the card\'s MRZ the lower one, the region readPrintedPage reads around by default', async () => {
    const { document } = await scene(page());
    const regions = findMrzRegions(document.pixels);
    expect(regions).toHaveLength(2);
    const lowest = regions.find((region) => region.lowest)!;
    expect(lowest.right).toBeLessThan(0.5); // the card, on the left
  });

  it("compares the applicant's own page: a genuine passport beside another person's card matches", async () => {
    const genuine = await scene(page());
    const signals = await check(genuine);
    expect(signals.documentReading.mrz).toMatchObject({ format: 'TD3', documentNumber: SPECIMEN_HOLDER.documentNumber });
    expect(signals.documentReading.otherDocument).toMatchObject({ format: 'TD1', sameHolder: false });
    // Until round 23 the card's page (OKAFOR) was compared with the passport's MRZ: mismatches, a false alarm.
    expect(signals.documentReading.visualZone).toEqual(ALL_MATCH);
    expect(genuine.pagesRead.some((width) => width >= 480)).toBe(true);
  });

  it("flags the applicant's tampered page beside another person's genuine card", async () => {
    const signals = await check(await scene(page({ surname: [['LINDQVIST', 430]] })));
    expect(signals.documentReading.visualZone).toEqual({ ...ALL_MATCH, surname: 'mismatch' });
  });

  it('reads the card holder\'s page when the card is the claimed one, as before', async () => {
    const scenario = await scene(page({ surname: [['LINDQVIST', 430]] }));
    const signals = await check(scenario, other);
    expect(signals.documentReading.mrz).toMatchObject({ format: 'TD1', documentNumber: other.documentNumber });
    expect(signals.documentReading.visualZone).toMatchObject({ documentNumber: 'match', surname: 'match', birthDate: 'match' });
    // One page read, the one read beside the MRZ: nothing more for a document around the lowest MRZ.
    expect(scenario.pagesRead).toHaveLength(1);
  });
});

describe('values confirmed in print (round 27)', () => {
  const numberConfirmed = (number: Word[]) => confirmedInPrint(MRZ, page({ number })).includes('documentNumber');

  it('confirms the MRZ number printed character for character, every character read confidently, grouped or not', () => {
    expect(numberConfirmed([['XA4186275', 820, 97]])).toBe(true);
    expect(numberConfirmed([['XA', 820, 98], ['418', 860, 99], ['6275', 910, 97]])).toBe(true);
    expect(numberConfirmed([['XA4186275', 820, 90, [99, 99, 98, 98, 99, 97, 99, 99, 99]]])).toBe(true);
  });

  it('does not confirm a number read with a look-alike, a character under 97, another number, or only inside the MRZ', () => {
    // A look-alike the visual zone folds for its match (B for 8): no confirmation of the MRZ's 8.
    expect(compareVisualZone(MRZ, page({ number: [['XA41B6275', 820]] })).documentNumber).toBe('match');
    expect(numberConfirmed([['XA41B6275', 820, 99]])).toBe(false);
    expect(numberConfirmed([['XA4186275', 820, 96]])).toBe(false);
    expect(numberConfirmed([['XA4186275', 820, 95, [99, 99, 99, 96, 99, 99, 99, 99, 99]]])).toBe(false);
    expect(numberConfirmed([['XA4186276', 820, 99]])).toBe(false);
    expect(numberConfirmed([['xa4186275', 820, 99]])).toBe(false);
    const mrzOnly = [...page({ number: [] }), line(600, [['XA4186275', 10, 99], ['<<<<<<', 130, 99]])];
    expect(confirmedInPrint(MRZ, mrzOnly)).not.toContain('documentNumber');
  });

  it('does not take an MRZ line the page OCR read with its fillers as «, K or nothing for the printed number (round 27 review)', () => {
    // An 8-character number: the filler before its check digit leaves it a word of its own on MRZ line 2.
    const mrzLines = composeTd3({ ...SPECIMEN_HOLDER, documentNumber: 'J8369854', issuingState: 'IND', nationality: 'IND' });
    const short = readMrz(mrzLines.join('\n'), new Date('2026-06-01T12:00:00Z'))!;
    expect(short).toMatchObject({ valid: true, documentNumber: 'J8369854' });
    const reread = (fillers: string) => line(600, mrzLines[1]!.replace(/</g, fillers).split(/\s+/).filter(Boolean).map((text, k): Word => [text, 10 + 120 * k, 99]));
    for (const fillers of [' ', ' « ', ' K']) {
      expect(confirmedInPrint(short, [...page({ number: [] }), reread(fillers)]), fillers).not.toContain('documentNumber');
    }
    expect(confirmedInPrint(short, page({ number: [['J8369854', 820, 99]] }))).toContain('documentNumber');
  });

  it('does not let such an MRZ line match the page where its printed number or name was changed (round 27, MRZ lines)', () => {
    const mrzLines = composeTd3({ ...SPECIMEN_HOLDER, documentNumber: 'J8369854', issuingState: 'IND', nationality: 'IND' });
    const short = readMrz(mrzLines.join('\n'), new Date('2026-06-01T12:00:00Z'))!;
    const reread = (fillers: string) =>
      mrzLines.map((mrzLine, row) => line(600 + 40 * row, mrzLine.replace(/</g, fillers).split(/\s+/).filter(Boolean).map((text, k): Word => [text, 10 + 120 * k, 99])));
    for (const fillers of [' ', ' « ', ' K']) {
      const tampered = page({ number: [['J8369884', 820, 95]], given: [['KARIN', 430]] });
      expect(compareVisualZone(short, [...tampered, ...reread(fillers)]), fillers).toMatchObject({ documentNumber: 'mismatch', givenNames: 'mismatch' });
      // The genuine page with the same MRZ lines taken in matches, as without them.
      expect(compareVisualZone(short, [...page({ number: [['J8369854', 820]] }), ...reread(fillers)]), fillers).toEqual(ALL_MATCH);
    }
    // Without its label the changed number is still seen (round 26), not hidden by the MRZ line.
    const confidentChange = [98, 98, 98, 98, 98, 98, 98, 98];
    const unlabelled = page({ number: [] }).filter((words) => !words.some((w) => w.text === 'Passport'));
    const elsewhere = line(520, [['J8369884', 40, 90, confidentChange]]);
    expect(compareVisualZone(short, [...unlabelled, elsewhere, ...reread(' ')]).documentNumber).toBe('mismatch');
  });

  it('still finds a value on a page line that shares fewer than 14 characters in a row with an MRZ line', () => {
    // The page's type, state and number on one line: 13 characters of MRZ line 1 and 2 at most.
    const typeLine = line(125, [['P', 430], ['SWE', 600], ['XA4186275', 820]]);
    const genuine = page().map((words) => (words[0]?.text === 'XA4186275' ? typeLine : words));
    expect(compareVisualZone(MRZ, genuine)).toEqual(ALL_MATCH);
    // A name line of 14 letters or more is the MRZ's name line read again as far as the text tells: no match from
    // it, but its label still points to it, so the genuine name is no mismatch.
    const oneLine = page({ surname: [['ERIKSSON', 430], ['ANNA', 540], ['MARIA', 600]] });
    expect(compareVisualZone(MRZ, oneLine).surname).not.toBe('mismatch');
  });

  it('confirms the birth and expiry dates printed in confidently read words, all-digit ones only where day and month are known', () => {
    const number: Word[] = [['XA4186275', 820, 90]];
    expect(confirmedInPrint(MRZ, page({ number }))).toEqual(['birthDate', 'expiryDate']);
    expect(confirmedInPrint(MRZ, page({ number, birth: [['12', 430, 80], ['AUG', 465], ['1974', 515]] }))).toEqual(['expiryDate']);
    expect(confirmedInPrint(MRZ, page({ number, birth: [['12', 430], ['AUG', 465], ['1975', 515]] }))).toEqual(['expiryDate']);
    // 08/12/74 could be 8 December: no confirmation of 12 August, unless the page's other dates tell the order.
    expect(confirmedInPrint(MRZ, page({ number, birth: [['08/12/74', 430]] }))).toEqual(['expiryDate']);
    expect(confirmedInPrint(MRZ, page({ number, birth: [['12/08/74', 430]], expiry: [['15/03/34', 430]] }))).toEqual(['birthDate', 'expiryDate']);
  });
});
