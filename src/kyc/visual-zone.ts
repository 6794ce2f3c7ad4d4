// The visual zone: the MRZ's own values looked for on the printed page above it. A guided search (does the page show
// this value, or a near variant of it?) rather than free parsing, which OCR noise and unknown layouts defeat. A field
// is a mismatch only when the place its label points to clearly shows another value; anything else the page does not
// show is unread, never a failure. Measurements only: decision.ts decides. No value is kept, only the outcome.
import anyAscii from 'any-ascii';
import { editSimilarity, levenshtein } from '../edit-distance.ts';
import type { MrzReading } from './mrz.ts';
import { nameVariants } from './names.ts';
import type { RawPixels } from './intake.ts';
import { OCR_WIDTH, type Box, type OcrEngine } from './ocr.ts';
import { cutOutFinest, documentAround, documentAroundMrz, uprightMrzPage, type Region, type Upload } from './skew.ts';

export type VisualFieldResult = 'match' | 'mismatch' | 'unread';
export const VISUAL_FIELDS = ['documentNumber', 'surname', 'givenNames', 'birthDate', 'expiryDate'] as const;
export type VisualField = (typeof VISUAL_FIELDS)[number];
export type VisualZoneComparison = Record<VisualField, VisualFieldResult>;

export interface PrintedWord {
  text: string;
  /** OCR confidence, 0–100. */
  confidence: number;
  box: Box;
  /** Each character's OCR confidence (0–100), in order, when the engine gives them. */
  characters?: number[];
}
/** One text line of the page as the OCR read it, words in reading order. */
export type PrintedLine = PrintedWord[];

/**
 * A value under a label is believed different from the MRZ only when every word of it was read at least this
 * confidently (tesseract's word confidence; clean print reads at 89–96, misreads of degraded print mostly below 70).
 */
export const CONFIDENT_WORD = 85;
/** A number one character away from the MRZ's is OCR noise unless read at least this confidently. */
const CERTAIN_WORD = 93;
/**
 * Or unless the one character that differs was read at least this confidently (tesseract's character confidence):
 * changed in print, not misread. On the development seed's pages (eval:kyc, seed 2611) printed numbers' characters
 * read mostly at 98, degraded pages too; the misreads seen there (an inserted z, lower-case letters) at 90–96.
 */
const CERTAIN_CHARACTER = 97;
/**
 * A labelled name this unlike the MRZ's (edit similarity) is another name, not a misread. MRZ names have no check
 * digit, so the MRZ side may be the misread one: SOFIA was read SSOTA (0.4) from a clean French card.
 */
const OTHER_NAME_SIMILARITY = 0.35;
/** A printed name token this like an MRZ token is the same name (accents, one misread letter in five). */
const SAME_NAME_SIMILARITY = 0.8;

// Labels, matched on the romanised lower-case text of a label group. Numbers other than the document's (personal,
// tax, social security numbers) sit under labels with a number word too: a document word is required.
const LABELS: Record<VisualField, RegExp> = {
  documentNumber:
    /\b(passport|document|card|visa|pass|docum\w*|dokument|carte|karte|pasaporte|passeport|passaporto)\b.*\b(no|nr|n|ndeg|number|numero|nummer)\b|\b(pass|dokument|karten|ausweis|visum)nummer\b|\bno du document\b/,
  givenNames: /\b(given names?|first names?|forenames?|prenoms?|vornamen?|fornamn|nombres?|nome|imiona|voornamen)\b/,
  surname: /\b(surname|last name|family name|nom|apellidos?|efternamn|nachname|familienname|cognome|nazwisko|achternaam)\b/,
  birthDate: /\b(birth|naissance|geburt\w*|fodelse\w*|nacimiento|nascita|urodzenia|geboorte\w*)\b/,
  expiryDate: /\b(expiry|expiration|expires|valid until|date of exp\w*|gultig\w*|giltig\w*|caducidad|scadenza|waznosci|geldig\w*)\b/,
};

/** Digit look-alikes, folded on both sides before numbers are compared. */
const DIGIT_LOOK_ALIKES: Record<string, string> = { O: '0', Q: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8' };
const foldNumber = (text: string) => anyAscii(text).toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/[OQDILZSGB]/g, (c) => DIGIT_LOOK_ALIKES[c]!);

const MONTHS: Record<string, number> = {
  JAN: 1, ENE: 1, FEB: 2, FEV: 2, MAR: 3, MRZ: 3, MAE: 3, APR: 4, AVR: 4, ABR: 4, MAY: 5, MAI: 5, JUN: 6, JUIN: 6,
  JUL: 7, JUIL: 7, AUG: 8, AOU: 8, AGO: 8, SEP: 9, SET: 9, OCT: 10, OKT: 10, NOV: 11, DEC: 12, DEZ: 12, DIC: 12,
};
const monthNumber = (name: string) => MONTHS[name.slice(0, 4)] ?? MONTHS[name.slice(0, 3)] ?? null;

interface PrintedDate {
  day: number;
  month: number;
  /** As printed: two or four digits. */
  year: string;
}

/**
 * The order of an all-digit date's day and month: `day` first (most issuers), `month` first (US cards: `08/25/1974`),
 * `either` where the page does not tell (each reading that is a date kept: `12.13.1974` is 13 December), `unambiguous`
 * (only dates that read one way: a part over 12, or day and month equal).
 */
export type DateOrder = 'day' | 'month' | 'either' | 'unambiguous';

/** The text in capitals, without accents, look-alike digits inside mostly-digit tokens read as digits. */
const foldDateText = (text: string) =>
  anyAscii(text)
    .toUpperCase()
    .split(/\s+/)
    .map((token) => {
      const digits = token.replace(/\D/g, '').length;
      const letters = token.replace(/[^A-Z]/g, '').length;
      return digits >= 2 && 2 * letters < digits ? token.replace(/[OQDILZSGB]/g, (c) => DIGIT_LOOK_ALIKES[c]!) : token;
    })
    .join(' ');

// `12 AUG 1974`, `12 AUG/AOÛT 74`; `12.08.1974`, `12/08/74`; `1974-08-12`.
const MONTH_NAME_DATE = /\b(\d{1,2})[\s.\-/]*([A-Z]{3,9})\.?(?:\s*\/\s*[A-Z]{3,9}\.?)?[\s.\-/]*(\d{4}|\d{2})\b/g;
const ALL_DIGIT_DATE = /\b(\d{1,2})\s*[.\-/]\s*(\d{1,2})\s*[.\-/]\s*(\d{4}|\d{2})\b/g;
const YEAR_FIRST_DATE = /\b(\d{4})\s*[.\-/]\s*(\d{1,2})\s*[.\-/]\s*(\d{1,2})\b/g;

/**
 * Every date written in the text as documents print them: `12 AUG 1974`, `12 AUG/AOÛT 74`, `12.08.1974`,
 * `12/08/74`, `1974-08-12`. Digit look-alikes inside mostly-digit tokens are read as digits first. All-digit dates
 * `a.b.year` are read in `order` (day first unless given).
 */
export function printedDates(text: string, order: DateOrder = 'day'): PrintedDate[] {
  const folded = foldDateText(text);
  const dates: PrintedDate[] = [];
  const add = (day: string, month: number | null, year: string) => {
    if (month && month <= 12 && +day >= 1 && +day <= 31) dates.push({ day: +day, month, year });
  };
  for (const m of folded.matchAll(MONTH_NAME_DATE)) {
    add(m[1]!, monthNumber(m[2]!), m[3]!);
  }
  for (const m of folded.matchAll(ALL_DIGIT_DATE)) {
    const [a, b] = [+m[1]!, +m[2]!];
    if (order === 'unambiguous' && a !== b && a <= 12 && b <= 12) continue;
    if (order !== 'month') add(m[1]!, b, m[3]!);
    if (order === 'month' || (order !== 'day' && a !== b)) add(m[2]!, a, m[3]!);
  }
  for (const m of folded.matchAll(YEAR_FIRST_DATE)) add(m[3]!, +m[2]!, m[1]!);
  return dates;
}

/** Issuers that print all-digit dates month first (the United States' cards). */
const MONTH_FIRST_STATES = new Set(['USA']);

/**
 * The order the page prints all-digit dates in: day first where its own dates show it (a first part over 12), month
 * first where the issuer prints so and the page does not contradict it, else unknown (`either`). Pages that show
 * both orders (a hand-made change, a misread) are unknown too.
 */
export function pageDateOrder(text: string, issuingState: string | null): DateOrder {
  let [dayFirst, monthFirst] = [false, false];
  for (const m of foldDateText(text).matchAll(ALL_DIGIT_DATE)) {
    const [a, b] = [+m[1]!, +m[2]!];
    if (a > 12 && a <= 31 && b >= 1 && b <= 12) dayFirst = true;
    if (b > 12 && b <= 31 && a >= 1 && a <= 12) monthFirst = true;
  }
  if (dayFirst && !monthFirst) return 'day';
  // Month first only where the issuer prints so: elsewhere one confidently misread date (an issue date's 11 read 17)
  // would turn the page's day-first dates around and make genuine ones mismatches. Read both ways, its dates match.
  if (!dayFirst && issuingState && MONTH_FIRST_STATES.has(issuingState)) return 'month';
  return 'either';
}

const daysIn = (month: number, year: number) => (month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/**
 * A date written as documents write them that no calendar has, in any order documents print one in: `31.13.1974`,
 * `14/15/74`, `31 APR 1974`, `30 FEB 1974`, `29.02.1975` (round 23). No issuer prints one; a forger who changes a
 * printed date by hand may. printedDates keeps a month-name date whose day is up to 31 (`31 APR`: another date than
 * the MRZ's all the same) and drops the others, which then read as no date at all.
 * Round 23 review: all-digit dates are read day first, month first (US cards print `Card Expires 12/31/29`, birth
 * dates `08/25/1974`) and, with a two-digit year first, year first (`74.08.12`); a date is impossible only when no
 * such reading is a date, so a genuine month-first date is never flagged. A day or month printed `00` is the unknown
 * part some issuers print (the MRZ then holds a convention or fillers): not impossible either.
 */
export function impossibleDate(text: string): boolean {
  const folded = foldDateText(text);
  /** A two-digit year's century is unknown, and only 29 February depends on it (1900 and 2000 differ). */
  const isDate = (day: number, month: number, year: string) =>
    month >= 1 && month <= 12 && day >= 1 && day <= (year.length === 2 && month === 2 ? 29 : daysIn(month, +year));
  for (const m of folded.matchAll(MONTH_NAME_DATE)) {
    const month = monthNumber(m[2]!);
    if (month !== null && +m[1]! > 0 && !isDate(+m[1]!, month, m[3]!)) return true;
  }
  for (const m of folded.matchAll(ALL_DIGIT_DATE)) {
    const [a, b, year] = [+m[1]!, +m[2]!, m[3]!];
    if (a === 0 || b === 0) continue;
    const yearFirst = m[1]!.length === 2 && year.length === 2 && isDate(+year, b, m[1]!);
    if (!isDate(a, b, year) && !isDate(b, a, year) && !yearFirst) return true;
  }
  for (const m of folded.matchAll(YEAR_FIRST_DATE)) {
    if (+m[2]! !== 0 && +m[3]! !== 0 && !isDate(+m[3]!, +m[2]!, m[1]!)) return true;
  }
  return false;
}

/** A printed date is the MRZ's ISO date; a two-digit year is compared as two digits, as the MRZ writes it. */
function sameDate(printed: PrintedDate, iso: string): boolean {
  const [year, month, day] = iso.split('-');
  return printed.day === +day! && printed.month === +month! && (printed.year.length === 2 ? year!.slice(2) === printed.year : year === printed.year);
}

/** Letter look-alikes of OCR (an MRZ name's O read as Q or 0), folded on both sides before names are compared. */
const foldName = (token: string) => token.replace(/[Q0]/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B');
const nameTokens = (text: string): string[] => nameVariants(text).flat().map(foldName);

/** The MRZ name tokens (a filler between names) all appear among the printed tokens, or as their MRZ-truncated start. */
function nameShown(mrzName: string, printed: Set<string>): boolean {
  const wanted = mrzName.split(/[\s<]+/).filter((token) => token.length >= 2).map(foldName);
  if (wanted.length === 0) return false;
  return wanted.every((token) =>
    [...printed].some((word) => editSimilarity(token, word) >= SAME_NAME_SIMILARITY || (token.length >= 3 && word.startsWith(token))),
  );
}

/** Labels and values form groups of words on a line, separated by wide gaps (columns of a data page). */
function groups(line: PrintedLine): PrintedLine[] {
  const found: PrintedLine[] = [];
  for (const word of line) {
    const current = found.at(-1);
    const last = current?.at(-1);
    const height = last ? last.box.y1 - last.box.y0 : 0;
    if (current && last && word.box.x0 - last.box.x1 < 1.5 * height) current.push(word);
    else found.push([word]);
  }
  return found;
}

const span = (words: PrintedWord[]): Box => ({
  x0: Math.min(...words.map((w) => w.box.x0)),
  y0: Math.min(...words.map((w) => w.box.y0)),
  x1: Math.max(...words.map((w) => w.box.x1)),
  y1: Math.max(...words.map((w) => w.box.y1)),
});
const labelText = (words: PrintedWord[]) => anyAscii(words.map((w) => w.text).join(' ')).toLowerCase().replace(/[^a-z0-9/ ]+/g, ' ');

/**
 * The value printed under a field's label: the words of the nearest line below that start under the label group
 * (a label group of another field wins: "Given names" is no surname label). null when no label or no value is read.
 */
function labelledValue(lines: PrintedLine[], field: VisualField): PrintedWord[] | null {
  for (const [index, line] of lines.entries()) {
    for (const group of groups(line)) {
      const text = labelText(group);
      if (!LABELS[field].test(text)) continue;
      if (field === 'surname' && LABELS.givenNames.test(text)) continue;
      const label = span(group);
      const height = label.y1 - label.y0;
      for (const below of lines.slice(index + 1)) {
        const words = below.filter((w) => w.box.y0 >= label.y1 - height / 2 && w.box.x0 >= label.x0 - height && w.box.x0 < label.x1);
        if (words.length === 0) continue;
        if (span(words).y0 - label.y1 > 3 * height) break;
        return words;
      }
    }
  }
  return null;
}

/** Every word of a value read at `gate` or above (CONFIDENT_WORD, unless compareVisualZone is given another). */
const confident = (words: PrintedWord[], gate: number) => words.every((w) => w.confidence >= gate);

/** The words' characters, mapped by `map` (foldNumber, or as read), each with its OCR confidence (the word's when none is given). */
function wordCharacters(words: PrintedWord[], map: (character: string) => string = foldNumber): { text: string; confidences: number[] } {
  let text = '';
  const confidences: number[] = [];
  for (const word of words) {
    const characters = [...word.text];
    const perCharacter = word.characters?.length === characters.length ? word.characters : null;
    characters.forEach((c, i) => {
      const mapped = map(c);
      text += mapped;
      for (let k = 0; k < mapped.length; k++) confidences.push(perCharacter?.[i] ?? word.confidence);
    });
  }
  return { text, confidences };
}

/**
 * The model reads 9 as O (folded: 0) at full confidence, in the MRZ and on the printed page alike, so a 9 against a
 * 0 either way is no evidence of tampering (and a 0/9 tamper of the number cannot be seen here).
 */
const CONFIDENT_MISREADS = new Set(['9>0', '0>9']);

/** Runs of up to three consecutive words of a line: values are printed grouped at times (`XA 418 6275`). */
function* wordRuns(lines: PrintedLine[]): Generator<PrintedWord[]> {
  for (const line of lines) {
    for (let start = 0; start < line.length; start++) {
      for (let end = start + 1; end <= Math.min(line.length, start + 3); end++) yield line.slice(start, end);
    }
  }
}

/** At most this many characters of a number changed in print are seen without its label (round 26). */
const UNLABELLED_CHANGES = 2;

/**
 * `read` is `wanted` with one to UNLABELLED_CHANGES characters replaced, each read at CERTAIN_CHARACTER or above and
 * none in a way the model misreads confidently: a changed print of the number, wherever it is printed. No other
 * number on a page (personal, card, tax numbers) comes that close to a document number of 6+ characters by chance.
 */
function changedInPrint(read: { text: string; confidences: number[] }, wanted: string): boolean {
  if (wanted.length < 6 || read.text.length !== wanted.length) return false;
  const differing = [...read.text].flatMap((c, i) => (c === wanted[i] ? [] : [i]));
  return (
    differing.length >= 1 &&
    differing.length <= UNLABELLED_CHANGES &&
    differing.every((at) => read.confidences[at]! >= CERTAIN_CHARACTER && !CONFIDENT_MISREADS.has(`${wanted[at]}>${read.text[at]}`))
  );
}

/** `shown`: the page lines a value may be found on (not the MRZ read again); `lines`: every page line, for the label's value. */
function compareNumber(mrzNumber: string, lines: PrintedLine[], shown: PrintedLine[], gate: number): VisualFieldResult {
  const wanted = foldNumber(mrzNumber);
  if (wanted.length < 4) return 'unread';
  const allowed = (confidence: number) => (wanted.length >= 6 && confidence < CERTAIN_WORD ? 1 : 0);
  let changed = false;
  for (const words of wordRuns(shown)) {
    const confidence = Math.min(...words.map((w) => w.confidence));
    const read = wordCharacters(words);
    const changedHere = changedInPrint(read, wanted);
    if (levenshtein(read.text, wanted) <= allowed(confidence) && !changedHere) return 'match';
    changed ||= confidence >= gate && changedHere;
  }
  const value = labelledValue(lines, 'documentNumber');
  // The word's confidence gate stays for a value one character off too: without it, genuine numbers whose 9 was read
  // as O at 97 under a word at 80 made false mismatches on an unseen seed (5077).
  if (value && confident(value, gate)) {
    const printed = foldNumber(value.map((w) => w.text).join(''));
    // A number has digits and is about as long as the MRZ's; anything else under the label is a misread or a word.
    const numberLike = /\d.*\d/.test(printed) && Math.abs(printed.length - wanted.length) <= 2;
    if (numberLike && levenshtein(printed, wanted) >= 1) return 'mismatch';
  }
  // Round 26: a document small in a photo prints its labels ~4 px high, read as nothing; the number changed in print
  // is still itself, wherever it stands.
  return changed ? 'mismatch' : 'unread';
}

function compareName(mrzName: string, field: 'surname' | 'givenNames', lines: PrintedLine[], printedTokens: Set<string>, gate: number): VisualFieldResult {
  if (nameShown(mrzName, printedTokens)) return 'match';
  const value = labelledValue(lines, field);
  if (!value || !confident(value, gate)) return 'unread';
  const printed = nameTokens(value.map((w) => w.text).join(' ')).join('');
  const wanted = foldName(mrzName).replace(/[^A-Z]/g, '');
  if (printed.length < 3 || wanted.length === 0) return 'unread';
  // The MRZ may cut a long name: only the printed start as long as the MRZ's is compared.
  return editSimilarity(printed.slice(0, wanted.length), wanted) < OTHER_NAME_SIMILARITY ? 'mismatch' : 'unread';
}

/**
 * Round 26: the MRZ's birth date printed with another year (the holder made older or younger), wherever it stands:
 * a date read at `gate` with the birth date's day and month, all-digit dates only where the page's order makes them
 * unambiguous. Not when the birthday is within a day of the expiry's day and month: a document runs whole years from
 * its issue day (to the day, or to the day before), so one issued on the holder's birthday prints that day and month
 * in its issue date. Nor a year after the expiry's: no birth year, a date of another calendar (the Buddhist era's
 * 2517 is 1974). A change of day or month is seen under a readable label only: a child's issue date can share the
 * birth date's month and year.
 */
function birthYearChanged(mrz: MrzReading, lines: PrintedLine[], order: DateOrder, gate: number): boolean {
  const birth = mrz.birthDate!;
  const [, birthMonth, birthDay] = birth.split('-').map(Number);
  const [expiryYear, expiryMonth, expiryDay] = (mrz.expiryDate ?? '').split('-').map(Number);
  if (expiryMonth && expiryDay && daysApartInYear(birthMonth!, birthDay!, expiryMonth, expiryDay) <= 1) return false;
  const birthYear = (date: PrintedDate) => date.year.length === 2 || !expiryYear || +date.year <= expiryYear;
  for (const words of wordRuns(lines)) {
    if (!confident(words, gate)) continue;
    const dates = printedDates(words.map((w) => w.text).join(' '), order === 'either' ? 'unambiguous' : order);
    if (dates.some((date) => date.day === birthDay && date.month === birthMonth && !sameDate(date, birth) && birthYear(date))) return true;
  }
  return false;
}

/** Days between two days of the year (month, day), round the year's end (31 December and 1 January are 1 apart). */
function daysApartInYear(monthA: number, dayA: number, monthB: number, dayB: number): number {
  const dayOfYear = (month: number, day: number) => (Date.UTC(2000, month - 1, day) - Date.UTC(2000, 0, 1)) / 86_400_000;
  const apart = Math.abs(dayOfYear(monthA, dayA) - dayOfYear(monthB, dayB));
  return Math.min(apart, 366 - apart);
}

function compareDate(mrz: MrzReading, field: 'birthDate' | 'expiryDate', lines: PrintedLine[], pageDates: PrintedDate[], order: DateOrder, gate: number): VisualFieldResult {
  const iso = mrz[field];
  if (!iso) return 'unread';
  if (pageDates.some((date) => sameDate(date, iso))) return 'match';
  const value = labelledValue(lines, field);
  if (value && confident(value, gate)) {
    const text = value.map((w) => w.text).join(' ');
    const dates = printedDates(text, order);
    // A date clearly read under the label that no calendar has (month 13, 32 of a month) is not the MRZ's date
    // either: until round 23 it read as no date, unread, and a page changed by hand to one passed plainly.
    if (dates.length > 0 ? !dates.some((date) => sameDate(date, iso)) : impossibleDate(text)) return 'mismatch';
  }
  return field === 'birthDate' && birthYearChanged(mrz, lines, order, gate) ? 'mismatch' : 'unread';
}

/** An MRZ line read by the general OCR (long runs of MRZ characters, fillers): not part of the visual zone. */
const isMrzLine = (line: PrintedLine) => line.some((w) => /<</.test(w.text) || /^[A-Z0-9<]{25,}$/.test(w.text));
/** The French card's MRZ holds no expiry (mrz.ts estimates it from the issue month): nothing to compare. */
const comparedDates = (mrz: MrzReading): ('birthDate' | 'expiryDate')[] => (mrz.format === 'FRA_ID' ? ['birthDate'] : ['birthDate', 'expiryDate']);
const pageLines = (printed: PrintedLine[]) => printed.filter((line) => line.length > 0 && !isMrzLine(line));

/**
 * Letters and digits in capitals but K: a page line and an MRZ line compared without fillers (read as `«`, `K` or
 * nothing) or spaces. K is dropped on both sides: the name line's fillers read as K cut its names into runs shorter
 * than MRZ_STRETCH (`PKUTOERIKSSONKKANNAKMARIA`).
 */
const lettersAndDigits = (text: string) => text.toUpperCase().replace(/[^A-JL-Z0-9]/g, '');
/** This many characters in a row of an MRZ line are the MRZ itself: more than a printed value and its neighbour share with it. */
const MRZ_STRETCH = 14;

/**
 * Round 27 review: an MRZ line the page's OCR took in (the page cut below the band, or no band found) with its fillers
 * read as `«`, `K` or nothing, which isMrzLine does not see: the number of 8 characters stands alone in
 * `J8369854 4IND7408122F...`. Read again from the MRZ's own print, it is no second, independent reading.
 */
function readsMrzAgain(line: PrintedLine, mrz: MrzReading): boolean {
  const text = lettersAndDigits(line.map((w) => w.text).join(''));
  const mrzLines = mrz.lines.map(lettersAndDigits);
  for (let at = 0; at + MRZ_STRETCH <= text.length; at++) {
    const stretch = text.slice(at, at + MRZ_STRETCH);
    if (mrzLines.some((mrzLine) => mrzLine.includes(stretch))) return true;
  }
  return false;
}
/** The page lines that are not the MRZ read again: the only ones on which the page can show an MRZ value independently. */
const independentLines = (lines: PrintedLine[], mrz: MrzReading) => lines.filter((line) => !readsMrzAgain(line, mrz));

/**
 * Round 27: the MRZ's number printed on the page character for character as read (no look-alike folded; a run of up
 * to three words, `XA 418 6275`), every character at CERTAIN_CHARACTER: a second reading of the number, in another
 * font and place, that confirms what the MRZ's check digits could not vouch for (a look-alike one of them chose,
 * characters that could be their look-alikes). A wrong repair is confirmed only if the page is misread into the same
 * wrong character, confidently; a number tampered in print or in the MRZ reads otherwise on one of the two.
 */
function numberPrintedExactly(mrzNumber: string, lines: PrintedLine[]): boolean {
  for (const words of wordRuns(lines)) {
    const read = wordCharacters(words, (c) => c);
    if (read.text === mrzNumber && read.confidences.every((confidence) => confidence >= CERTAIN_CHARACTER)) return true;
  }
  return false;
}

/**
 * The visual-zone fields whose MRZ value the page prints exactly: the number (numberPrintedExactly), and the birth and
 * expiry dates printed in words read at CONFIDENT_WORD (all-digit dates only where the page's order tells day from
 * month). A date no check digit vouches for (a digit the check digit or the character cells chose) is then the one
 * printed; a printed date tampered with, or another date, is no such confirmation.
 */
export function confirmedInPrint(mrz: MrzReading, printed: PrintedLine[]): VisualField[] {
  const lines = pageLines(printed);
  const confidentText = printedText(lines.map((line) => line.filter((w) => w.confidence >= CONFIDENT_WORD)));
  const order = pageDateOrder(confidentText, mrz.issuingState);
  const dates = printedDates(confidentText, order === 'either' ? 'unambiguous' : order);
  const number = mrz.documentNumber?.replace(/</g, '') ?? '';
  const confirmed: VisualField[] = number.length >= 6 && numberPrintedExactly(number, independentLines(lines, mrz)) ? ['documentNumber'] : [];
  for (const field of comparedDates(mrz)) {
    const iso = mrz[field];
    if (iso && dates.some((date) => sameDate(date, iso))) confirmed.push(field);
  }
  return confirmed;
}

/**
 * Each MRZ value looked for on the printed page (the lines the OCR read above the MRZ). `confidentWord`: the word
 * confidence from which a value under a label counts as clearly read (CONFIDENT_WORD; another only to measure what a
 * lower gate would flag, as eval:kyc does).
 */
export function compareVisualZone(mrz: MrzReading, printed: PrintedLine[], confidentWord = CONFIDENT_WORD): VisualZoneComparison {
  const lines = pageLines(printed);
  // Round 27 (MRZ lines): an MRZ line read again (readsMrzAgain) matched the MRZ by itself, and a tampered printed
  // value hid behind it. Values are found on the other lines only; a label's value is still looked for on every line,
  // so that leaving a line out moves no label onto the next line's value.
  const shown = independentLines(lines, mrz);
  const text = printedText(shown);
  const printedTokens = new Set(shown.flatMap((line) => nameTokens(line.map((w) => w.text).join(' '))));
  // Round 26: all-digit dates read in the order the page prints them (US cards month first), or both ways; the order
  // told by confidently read dates only, so that a misread part over 12 does not turn the page's dates around.
  const order = pageDateOrder(printedText(lines.map((line) => line.filter((w) => w.confidence >= confidentWord))), mrz.issuingState);
  const pageDates = printedDates(text, order);
  return {
    documentNumber: mrz.documentNumber ? compareNumber(mrz.documentNumber.replace(/</g, ''), lines, shown, confidentWord) : 'unread',
    surname: mrz.lastName ? compareName(mrz.lastName, 'surname', lines, printedTokens, confidentWord) : 'unread',
    givenNames: mrz.firstName ? compareName(mrz.firstName, 'givenNames', lines, printedTokens, confidentWord) : 'unread',
    birthDate: compareDate(mrz, 'birthDate', lines, pageDates, order, confidentWord),
    expiryDate: comparedDates(mrz).includes('expiryDate') ? compareDate(mrz, 'expiryDate', lines, pageDates, order, confidentWord) : 'unread',
  };
}

/**
 * Scale of the visual-zone reading: the MRZ's. Printed fields are smaller than MRZ characters (labels ~11 px, values
 * ~18 px capitals on a 1250 px page); at 1000 px the model misread values (NGUYEN as NGUYI) and dropped labels.
 */
export const VISUAL_ZONE_WIDTH = OCR_WIDTH;
/** Where the printed page ends when the MRZ band is not found: the MRZ lines it takes in are left out by their look. */
const DEFAULT_ZONE_BOTTOM = 0.8;

/**
 * The printed page above the MRZ, read once with the general alphabet: turned the way the MRZ band says the page is
 * turned and cut at the band's top. Its lines serve the visual zone (compareVisualZone) and the search for a
 * SPECIMEN mark (printedText, specimen.ts), so the page is read once per check.
 * `mrzRegion` (round 23): the MRZ region of the document to read where the photo holds two (findMrzRegions); without
 * it, the document around the lowest MRZ region (findMrzRegion), or the whole image when none is found.
 */
export async function readPrintedPage(pixels: RawPixels, ocr: OcrEngine, mrzRegion: Region | null = null, upload: Upload | null = null): Promise<PrintedLine[]> {
  // A document small in the photo (round 21 review): its own page cut out, so that the OCR scale gives its print the
  // usual pitch; read in the whole photo its values are ~7 px high, read as nothing, and a tampered page passed.
  // Cut from the upload at full resolution where it is larger, and straightened (round 27): in the working copy its
  // labels are ~4 px.
  const document = mrzRegion ? documentAround(mrzRegion, pixels) : documentAroundMrz(pixels);
  const { upright, band } = await uprightMrzPage(document ? await cutOutFinest(pixels, document, upload, pixels, { straighten: true }) : pixels);
  const bottom = band && band.top > 0.3 ? band.top : DEFAULT_ZONE_BOTTOM;
  return ocr.readPrintedBand(upright, { top: 0, bottom }, VISUAL_ZONE_WIDTH);
}

/** The lines read on the page as text, one line per line. */
export const printedText = (lines: PrintedLine[]): string => lines.map((line) => line.map((w) => w.text).join(' ')).join('\n');
