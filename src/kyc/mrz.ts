// Finds a machine-readable zone in OCR text and verifies it (ICAO 9303 TD1, TD2, TD3, MRV-A, MRV-B, and the French
// national identity card of 1988–2021). Our own field layouts rather than the `mrz` package's parser: OCR output needs
// repair the package does not do (filler noise, line length, confusable characters resolved by each field's
// character class and by its check digit), and the package rejects ICAO's specimen state UTO.
//
// Repair never turns a wrong read into a silently valid one: class repairs (a letter in a digit-only field) are
// listed in `corrections`; a state code that is no ICAO code, taken for the one code a single letter look-alike swap
// gives, in `stateRepairs` (no check digit covers a state, so nothing confirms it: review); check-digit repairs (a look-alike swap in a field of letters and digits, at most
// MAX_CHECKED_SWAPS, only when exactly one choice satisfies the check digit and the composite check digit then
// holds; on visas, which have no composite, one swap and only when it is the only one) in `checkDigitRepairs`, which
// send the document to review; so does a number that holds as read but would hold as well with some of its I, O or Q
// read as digits (kept as read, or with O and Q as 0 when that holds). A failing number under a composite that holds
// with its O and Q read as 0, and with no other reading of them, is a correction (zerosOnly; analyse.ts makes it a
// repair unless its characters read alone confirm it). A digit read as another digit is never changed; a check digit read as no digit at all
// may be read again from the image (withRereadCheckDigits), never computed.
import { states } from 'mrz';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB' | 'FRA_ID';

export interface MrzReading {
  format: MrzFormat;
  lines: string[];
  /** Every field is well formed and every check digit (composite included) matches after repair. */
  valid: boolean;
  /** Fields that failed: check digits end in CheckDigit (documentNumberCheckDigit, compositeCheckDigit, …). */
  invalidFields: string[];
  /**
   * Fields whose look-alikes were forced into the field's class (a letter in a date, a digit in a state code), and a
   * document number under a composite whose O and Q were read as 0, nothing else holding (zerosOnly; analyse.ts keeps
   * it here only when each character read alone confirms it).
   */
  corrections: string[];
  /**
   * Letters-and-digits fields where a look-alike swap was chosen because it satisfies the check digit, or that hold
   * their check digit as read but would hold it as well with some of their I, O and Q read as digits (kept as read,
   * or with O and Q as 0 when that holds: `rareLetterTwin`); a character added or lost placed by the check digits;
   * and check digits read again from the image with no composite to confirm them (`<field>CheckDigit`). The check
   * digit then confirms nothing: such a reading needs a human look, never a straight pass.
   */
  checkDigitRepairs: string[];
  /** State fields (issuingState, nationality) read as no ICAO code and taken for the one a look-alike swap gives. */
  stateRepairs: string[];
  /**
   * Checked fields (own check digit or composite) where characters the OCR read with low confidence, or with none, or
   * (a valid number's G/6, F/5, S/8, U/0, L/1) read again alone as their look-alike, could be look-alikes with every
   * check digit still holding (G/6, F/5, U/0, L/1, S/8: values a multiple of 10 apart; pairs whose shifts cancel,
   * such as B/8 under weights 3 and 7): mrz-cells.ts `withUncertainCharacters`. Also, however confidently read, a
   * doubled letter whose digit look-alike taken for both holds every check digit (same file), and a plainly valid
   * number another look at the page read otherwise (analyse.ts `numberReadOtherwise`).
   * Nothing vouches for which was printed, so a human looks (review).
   */
  uncertainCharacters: string[];
  /** Issuing state or nationality is an ICAO specimen state (UTO): acceptable with test keys only. */
  specimen: boolean;
  documentCode: string | null;
  issuingState: string | null;
  documentNumber: string | null;
  nationality: string | null;
  lastName: string | null;
  firstName: string | null;
  /** ISO dates (YYYY-MM-DD); null when unreadable. */
  birthDate: string | null;
  expiryDate: string | null;
  sex: string | null;
  personalNumber: string | null;
}

/** N digits only, A letters (and filler), X either. */
export type CharClass = 'N' | 'A' | 'X';

interface FieldSpec {
  name: string;
  line: number;
  start: number;
  end: number;
  kind: CharClass;
  /** Position of this field's check digit ([line, index]). */
  check?: [number, number];
  /** The check digit may be a filler when the field is empty (TD3 personal number). */
  optionalCheck?: boolean;
}

interface Layout {
  format: MrzFormat;
  lineLength: number;
  lineCount: number;
  /** Required first letter of the document code, if the format fixes one. */
  codePattern: RegExp;
  fields: FieldSpec[];
  /** Lines mostly made of the name, whose filler tail OCR lengthens; the others are data lines. */
  nameLines: number[];
  /** Composite check digit: the ranges ([line, start, end]) it covers and where it sits. */
  composite?: { over: [number, number, number][]; at: [number, number] };
}

const f = (name: string, line: number, start: number, end: number, kind: CharClass, check?: [number, number], optionalCheck = false): FieldSpec =>
  ({ name, line, start, end, kind, check, optionalCheck });

/** Line 2 of TD2, TD3, MRV-A, MRV-B: the same fields up to the expiry check digit. */
const dataLine = (optionalEnd: number, optionalCheck: boolean): FieldSpec[] => [
  f('documentNumber', 1, 0, 9, 'X', [1, 9]),
  f('nationality', 1, 10, 13, 'A'),
  f('birthDate', 1, 13, 19, 'N', [1, 19]),
  f('sex', 1, 20, 21, 'A'),
  f('expirationDate', 1, 21, 27, 'N', [1, 27]),
  optionalCheck
    ? f('personalNumber', 1, 28, optionalEnd, 'X', [1, optionalEnd], true)
    : f('personalNumber', 1, 28, optionalEnd, 'X'),
];

const CODE_AND_STATE: FieldSpec[] = [f('documentCode', 0, 0, 2, 'A'), f('issuingState', 0, 2, 5, 'A')];
const header = (nameEnd: number): FieldSpec[] => [...CODE_AND_STATE, f('name', 0, 5, nameEnd, 'A')];

const LAYOUTS: Layout[] = [
  {
    format: 'TD3', lineLength: 44, lineCount: 2, codePattern: /^P/, nameLines: [0],
    fields: [...header(44), ...dataLine(42, true)],
    composite: { over: [[1, 0, 10], [1, 13, 20], [1, 21, 43]], at: [1, 43] },
  },
  { format: 'MRVA', lineLength: 44, lineCount: 2, codePattern: /^V/, nameLines: [0], fields: [...header(44), ...dataLine(44, false)] },
  {
    format: 'TD2', lineLength: 36, lineCount: 2, codePattern: /^[ACIP]/, nameLines: [0],
    fields: [...header(36), ...dataLine(35, false)],
    composite: { over: [[1, 0, 10], [1, 13, 20], [1, 21, 35]], at: [1, 35] },
  },
  { format: 'MRVB', lineLength: 36, lineCount: 2, codePattern: /^V/, nameLines: [0], fields: [...header(36), ...dataLine(36, false)] },
  {
    format: 'FRA_ID', lineLength: 36, lineCount: 2, codePattern: /^ID$/, nameLines: [],
    fields: [
      ...CODE_AND_STATE,
      f('lastName', 0, 5, 30, 'A'),
      f('office', 0, 30, 36, 'X'),
      // YYMM of issue, department, office, serial: the issue month is what the expiry is derived from.
      f('documentNumber', 1, 0, 12, 'X', [1, 12]),
      f('firstName', 1, 13, 27, 'A'),
      f('birthDate', 1, 27, 33, 'N', [1, 33]),
      f('sex', 1, 34, 35, 'A'),
    ],
    composite: { over: [[0, 0, 36], [1, 0, 35]], at: [1, 35] },
  },
  {
    format: 'TD1', lineLength: 30, lineCount: 3, codePattern: /^[ACI]/, nameLines: [2],
    fields: [
      ...CODE_AND_STATE,
      f('documentNumber', 0, 5, 14, 'X', [0, 14]),
      f('optional1', 0, 15, 30, 'X'),
      f('birthDate', 1, 0, 6, 'N', [1, 6]),
      f('sex', 1, 7, 8, 'A'),
      f('expirationDate', 1, 8, 14, 'N', [1, 14]),
      f('nationality', 1, 15, 18, 'A'),
      f('optional2', 1, 18, 29, 'X'),
      f('name', 2, 0, 30, 'A'),
    ],
    composite: { over: [[0, 5, 30], [1, 0, 7], [1, 8, 15], [1, 18, 29]], at: [1, 29] },
  },
];

/** ICAO's specimen state ("Utopia"): valid on specimens only. */
export const SPECIMEN_STATES = new Set(['UTO']);

const CHECK_WEIGHTS = [7, 3, 1];
/** A character's value in a check digit: digits as themselves, A–Z 10–35, the filler 0. */
export const charValue = (c: string): number => (c === '<' ? 0 : c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 55);

/** ICAO 9303 check digit: weights 7-3-1, digits as themselves, A–Z as 10–35, '<' as 0. */
export function mrzCheckDigit(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += charValue(text[i]!) * CHECK_WEIGHTS[i % 3]!;
  return String(sum % 10);
}

/** OCR look-alikes: the digit a letter stands for in a digit field, the letter a digit stands for in a letter field. */
const DIGIT_FOR: Record<string, string> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', J: '1', Z: '2', A: '4', S: '5', G: '6', T: '7', B: '8' };
const LETTER_FOR: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '4': 'A', '5': 'S', '6': 'G', '7': 'T', '8': 'B' };
/** Every look-alike tried against a check digit (the class tables above keep one per character). */
export const LOOK_ALIKES: Record<string, string[]> = {
  ...Object.fromEntries(Object.entries({ ...DIGIT_FOR, ...LETTER_FOR }).map(([c, other]) => [c, [other]])),
  '0': ['O', 'D', 'Q'],
  I: ['1', 'J'],
  // The LSTM model often reads the generated MRZ font's 9 as O, in numbers and check digits alike.
  O: ['0', '9'],
  '7': ['T', 'Z'],
  Z: ['2', '7'],
};
/**
 * The digits a letter read in the composite's place may stand for: its look-alikes, and the letters tesseract reads
 * OCR-B's digit after a run of fillers as (round 17 dev seeds 4831 and 6977, 14 invalid TD1 readings: 6 as H or S, 8
 * as Y, E or S, 9 as Y, 1 as T or K). A digit so taken holds the composite or is not taken, and is a check-digit
 * repair (review): the composite then vouches for the fields it covers no more than the letter did, so it is not
 * taken when another field's check-digit repair needs the composite to confirm it.
 */
const COMPOSITE_READ_AS: Record<string, string[]> = {
  ...Object.fromEntries(Object.entries(LOOK_ALIKES).map(([c, others]) => [c, others.filter((other) => /\d/.test(other))])),
  H: ['6'],
  Y: ['8', '9'],
  E: ['8'],
  S: ['5', '6', '8'],
  T: ['7', '1'],
  K: ['1'],
};
/**
 * Letters OCR takes for one another in the MRZ font. Only used on state codes, which no check digit covers: a code
 * that is no ICAO code is taken for the one code a single such swap gives.
 */
const LETTER_LOOK_ALIKES: Record<string, string[]> = {
  I: ['J', 'L', 'T'], J: ['I'], L: ['I'], T: ['I'], O: ['Q', 'D', 'C'], Q: ['O'], D: ['O'], C: ['G', 'O'], G: ['C'],
  E: ['F'], F: ['E'], M: ['N'], N: ['M'], U: ['V'], V: ['U', 'Y'], Y: ['V'], K: ['X'], X: ['K'],
};
/**
 * Letters most issuers leave out of document numbers for being look-alikes. In a number whose check digit fails, O
 * and Q are read as 0 before any swap (I is not: the OCR also reads J as I), and among equally small repairs those
 * that bring in fewer of them win.
 */
const RARE_LETTERS = ['I', 'O', 'Q'];
const RARE_IN_NUMBERS = new RegExp(`[${RARE_LETTERS.join('')}]`);
const READ_AS_ZERO = /[OQ]/g;
/** The digit each of those letters is read for in a number (I as 1 here: only to ask whether the check digit can tell). */
const RARE_LETTER_DIGIT: Record<string, string> = Object.fromEntries(RARE_LETTERS.map((c) => [c, DIGIT_FOR[c]!]));
/** Rare letters in one field beyond this many are not all tried (2^6 readings at most). */
const MAX_RARE_PLACES = 6;
/** More equally small solutions than this and the check digit says too little to choose. */
const MAX_SOLUTIONS = 10;
/** Look-alike swaps tried to satisfy a check digit in a letters-and-digits field; more would validate noise. */
const MAX_CHECKED_SWAPS = 2;
/** Without a composite to confirm it (visas), a repair rests on the field's check digit alone: one swap at most. */
const MAX_UNCONFIRMED_SWAPS = 1;
/** Letters the OCR reads a '<' filler as, inside runs of fillers. */
export const FILLER_NOISE = /[KLCS]/;

export function cleanLine(line: string): string {
  return line.toUpperCase().replace(/\s+/g, '').replace(/«/g, '<<').replace(/‹/g, '<').replace(/[^A-Z0-9<]/g, '');
}

/**
 * OCR-B's '<' read by tesseract's English model: K and L in turn, often with no '<' read at all (`BRAKKLKLKLKLLLKLKKY`
 * for a TD1 line's eleven fillers). Six or more, mixing both letters, spell no name and, inside a number, leave it
 * failing its check digit.
 */
const OCR_B_FILLERS = /[KL]{6,}/g;

/**
 * Fillers read as letters. A stretch of OCR_B_FILLERS is fillers. A word made only of K, L, C and S inside a run of
 * fillers is misread fillers when at least two fillers precede a letter of it in the run, or one precedes and two
 * follow (so "JOHN<L<<<" loses a lone initial, "<<KARL" keeps its K).
 */
export function repairFillers(line: string): string {
  const filled = line.replace(OCR_B_FILLERS, (stretch) => (/K/.test(stretch) && /L/.test(stretch) ? '<'.repeat(stretch.length) : stretch));
  const chars = [...filled];
  for (const run of filled.matchAll(/[<KLCS]+/g)) {
    const start = run.index!;
    const text = run[0];
    // Letters after the run's last filler start the next word when that word goes on past the run in letters. A
    // digit next is a check digit or a number, which no field's data reaches after fillers (fields are padded on the
    // right): OCR-B's last '<' read `<K` before the composite left a K in a TD2's optional data that no check digit
    // sees (K weighs 20, as good as a filler's 0).
    const wordGoesOn = /[A-Z]/.test(filled[start + text.length] ?? '');
    const end = wordGoesOn ? text.lastIndexOf('<') + 1 : text.length;
    for (let i = 0; i < end; i++) {
      if (!FILLER_NOISE.test(text[i]!)) continue;
      const left = [...text.slice(0, i)].filter((c) => c === '<').length;
      const right = [...text.slice(i + 1)].filter((c) => c === '<').length;
      if (left >= 2 || (left >= 1 && right >= 2)) chars[start + i] = '<';
    }
  }
  return chars.join('');
}

/** How many letters of the text's MRZ-long lines repairFillers takes for fillers (OCR-B's '<' read as K and L). */
export function fillerNoise(text: string): number {
  const read = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length >= 20);
  return read.reduce((sum, line) => sum + [...repairFillers(line)].filter((c, j) => c !== line[j]).length, 0);
}

/**
 * Brings a line to the layout length by growing or shrinking its longest run of fillers (where OCR miscounts);
 * null when that would cut characters other than fillers.
 */
function fitLength(line: string, length: number): string | null {
  if (line.length === length) return line;
  const runs = [...line.matchAll(/<{2,}/g)];
  const longest = runs.sort((a, b) => b[0].length - a[0].length)[0];
  if (!longest || longest.index === undefined) return line.length < length ? line.padEnd(length, '<') : null;
  const runLength = longest[0].length + length - line.length;
  if (runLength < 1) return null;
  const fitted = line.slice(0, longest.index) + '<'.repeat(runLength) + line.slice(longest.index + longest[0].length);
  return fitted.padEnd(length, '<').slice(0, length);
}

/** When one character is missing or extra: every single insertion of a filler, or deletion, and where it was made. */
function lineVariants(line: string, length: number): { text: string; at: number }[] {
  const variants = new Map<string, number>();
  if (line.length === length + 1) for (let i = 0; i < line.length; i++) variants.set(line.slice(0, i) + line.slice(i + 1), i);
  if (line.length === length - 1) for (let i = 0; i <= line.length; i++) variants.set(line.slice(0, i) + '<' + line.slice(i), i);
  const fitted = fitLength(line, length);
  return [...variants].filter(([text]) => text !== fitted).map(([text, at]) => ({ text, at }));
}

/** How far from the layout length OCR may drift: name lines gain noise at their filler tail, data lines little. */
const NAME_LINE_SLACK = { shorter: 4, longer: 10 };
const DATA_LINE_SLACK = { shorter: 2, longer: 2 };

interface Candidate {
  layout: Layout;
  lines: string[];
  /** Characters the OCR lines differ in length from the layout's lines. */
  lengthMismatch: number;
  /** Where a character was dropped or a filler inserted to reach the layout's length (lineVariants). */
  edit?: { line: number; at: number };
  /**
   * The first line was read without the K of a split filler after the document code (withoutSplitFiller); `refitted`
   * when that line was then shorter or longer than the layout's, so that a character lost or added somewhere on it was
   * taken for a filler of the run fitLength resized.
   */
  splitFiller?: { refitted: boolean };
  /** Per line, the composite-only field fitLength may have shifted (refittedField); null where it shifted none. */
  refitted?: (string | null)[];
}

/**
 * OCR-B's '<' after a one-letter document code read as `<K` (round 18 dev seeds 3319 and 8053: `I<KFRA`, `I<KNGA`,
 * `V<KVNM` for `I<FRA`, …; a third of the first lines of TD1): every field after it is shifted by one. The line read
 * without that K, when the K cannot start the state (K and the next two letters are no ICAO code) and the three after
 * it are one. The K is dropped before any check digit is looked at, so no check digit chose it (as the filler run
 * fitted to its length); readMrz still sends it to review when K could start a state, or when a reading keeping the K
 * also holds with other data.
 */
function withoutSplitFiller(line: string): string | null {
  return /^[A-Z]<K/.test(line) && isState(line.slice(3, 6)) ? withoutSplitK(line) : null;
}

/** The first line without the K that OCR-B's '<' after the document code was split into (`I<KFRA` → `I<FRA`). */
const withoutSplitK = (line: string): string => line.slice(0, 2) + line.slice(3);

/**
 * A line ending in the composite check digit keeps its last character as read: OCR-B's digit after the filler run is
 * read as S, K or L as well (round 17 dev: 6 of 14 invalid TD1 readings had their composite so taken for a filler).
 */
const repairFillersBeforeCheckDigit = (line: string): string => repairFillers(line.slice(0, -1)) + line.slice(-1);

function* candidates(text: string): Generator<Candidate> {
  const read = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length >= 20);
  const lines = read.map(repairFillers);
  const endingInCheckDigit = read.map(repairFillersBeforeCheckDigit);
  const noise = read.map(fillerNoise);
  for (const layout of LAYOUTS) {
    const { lineCount, lineLength } = layout;
    const composite = layout.composite?.at;
    const compositeLine = composite && composite[1] === lineLength - 1 ? composite[0] : null;
    const longerLengths = new Set(LAYOUTS.filter((other) => other.lineCount === lineCount && other.lineLength > lineLength).map((other) => other.lineLength));
    for (let i = 0; i + lineCount <= lines.length; i++) {
      const group = lines.slice(i, i + lineCount).map((l, k) => (k === compositeLine ? endingInCheckDigit[i + k]! : l));
      const asRead = read.slice(i, i + lineCount);
      const unsplit = withoutSplitFiller(group[0]!);
      // The lines as read first: a plain valid reading of them ends the search before the K is dropped.
      yield* groupCandidates(layout, group, asRead, noise.slice(i), longerLengths);
      if (unsplit) {
        const unsplitAsRead = [withoutSplitK(asRead[0]!), ...asRead.slice(1)];
        yield* groupCandidates(layout, [unsplit, ...group.slice(1)], unsplitAsRead, noise.slice(i), longerLengths, { refitted: unsplit.length !== lineLength });
      }
    }
  }
}

/** The candidates of one group of lines read for `layout`: the lines fitted to its length, then one line's variants. */
function* groupCandidates(
  layout: Layout,
  group: string[],
  asRead: string[],
  noise: number[],
  longerLengths: Set<number>,
  splitFiller?: Candidate['splitFiller'],
): Generator<Candidate> {
  const { lineLength } = layout;
  const fits = group.every((l, k) => {
    const nameLine = layout.nameLines.includes(k);
    const slack = nameLine ? NAME_LINE_SLACK : DATA_LINE_SLACK;
    // TD1's name line, under two data lines that fix the format, may have lost any number of its tail fillers
    // (fitLength pads it; no check digit covers it). On two-line formats the name line's length is part of what
    // tells 44- from 36-character layouts: a 22-character MRV-A name line let a garbled pass read as an MRV-B.
    // Round 24 (#14): so may a TD3's or MRV-A's name line, under a data line read 44 ± 2 long, which no 36-character
    // layout's can be: at ~7 px per character the OCR merges the tail's filler run (`LUCAS<<<<C<<<<C<<<<<<<`, 35
    // characters for 44), and the MRZ was not found at all though its data line read whole.
    const dataLineFixesLayout =
      layout.lineCount === 2 && lineLength === 44 && group.every((d, j) => layout.nameLines.includes(j) || Math.abs(d.length - lineLength) <= DATA_LINE_SLACK.longer);
    const fillerTail = nameLine && (layout.lineCount === 3 || dataLineFixesLayout) && l.endsWith('<<');
    // OCR-B's thin '<' is often read as two glyphs (`<K`, `KL`), which repairFillers makes two fillers: a line
    // may run longer by as many fillers as it repaired (fitLength cuts its longest run back) — but a data line
    // read exactly as long as a longer layout's is that layout's, not noise: cut down, a clean TD3 data line
    // whose personal number repairFillers emptied read as a TD2's, valid by chance, with the number lost.
    const withNoise = l.length - noise[k]! <= lineLength + slack.longer && (nameLine || !longerLengths.has(l.length));
    return (fillerTail || l.length >= lineLength - slack.shorter) && (l.length <= lineLength + slack.longer || withNoise);
  });
  if (!fits || !group.some((l) => l.includes('<<'))) return;
  if (!documentCodeFor(layout, fixClass(group[0]!.slice(0, 2), 'A').text)) return;
  // One line repaired at a time: the product of every line's variants would be thousands of parses.
  // A line with no filler run to absorb the difference is cut or padded; its variants below may do better.
  const fitted = group.map((l) => fitLength(l, lineLength) ?? l.padEnd(lineLength, '<').slice(0, lineLength));
  const lengthMismatch = group.reduce((sum, l) => sum + Math.abs(l.length - lineLength), 0);
  const refitted = group.map((l, k) => (layout.nameLines.includes(k) ? null : refittedField(layout, k, asRead[k]!, l, fitted[k]!)));
  yield { layout, lines: fitted, lengthMismatch, splitFiller, refitted };
  for (let k = 0; k < group.length; k++) {
    for (const { text, at } of lineVariants(group[k]!, lineLength)) {
      const others = refitted.map((name, j) => (j === k ? null : name));
      yield { layout, lines: fitted.map((l, j) => (j === k ? text : l)), lengthMismatch, edit: { line: k, at }, splitFiller, refitted: others };
    }
  }
}

/** Whether the composite check digit covers any of the field. */
const compositeCovers = (layout: Layout, f: FieldSpec) =>
  (layout.composite?.over ?? []).some(([line, start, end]) => line === f.line && f.start < end && f.end > start);

/**
 * A data line read a character short or long that fitLength padded or cut past the line's last own check digit: the
 * character lost or added may as well have been in the data there that only the composite covers (TD1's optional
 * data, TD2's), which the resized filler run then shifted, and the composite holds such a shift by chance one time in
 * ten — with a changed number whose own check digit was recomputed too (round 18 tamper probe: 53 such plain passes
 * of 1,377 TD1 readings, a digit of the personal number lost). So is a letter there that repairFillers took for a
 * filler (round 19): it may have been a stray character the OCR added rather than a filler it misread, and with a
 * character lost from the data the line then has its length and the data is shifted as by a resized run (round 18
 * review: a changed number or expiry, its own check digit recomputed, passed plainly 3 and 3 times of 1,377). The
 * first such field holding data is a repair. `asRead` is the line before repairFillers, `repaired` after it.
 */
function refittedField(layout: Layout, line: number, asRead: string, repaired: string, fitted: string): string | null {
  const ownChecks = layout.fields.filter((f) => f.check && f.check[0] === line).map((f) => f.check![1]);
  if (ownChecks.length === 0) return null;
  const lastCheck = Math.max(...ownChecks);
  let firstChange = 0;
  while (firstChange < fitted.length && fitted[firstChange] === repaired[firstChange]) firstChange++;
  const resizedPast = repaired.length !== fitted.length && firstChange > lastCheck;
  const fillerTakenPast = [...repaired].some((c, i) => i > lastCheck && c !== asRead[i]);
  if (!resizedPast && !fillerTakenPast) return null;
  const exposed = layout.fields.filter((f) => f.line === line && !f.check && f.start > lastCheck && compositeCovers(layout, f) && /[^<]/.test(fitted.slice(f.start, f.end)));
  return exposed.sort((a, b) => a.start - b.start)[0]?.name ?? null;
}

/** Forces a field's characters into its class with the look-alike tables; reports whether anything changed. */
function fixClass(text: string, kind: CharClass): { text: string; changed: boolean } {
  if (kind === 'X') return { text, changed: false };
  const table = kind === 'N' ? DIGIT_FOR : LETTER_FOR;
  const fixed = [...text].map((c) => table[c] ?? c).join('');
  return { text: fixed, changed: fixed !== text };
}

/**
 * The document code as the layout allows it: as read, or with a first letter the layout does not allow (the MRZ
 * font's serifed I read as T) taken for the one allowed letter a look-alike swap gives; null when neither.
 */
function documentCodeFor(layout: Layout, code: string): string | null {
  const allowed = (text: string) => layout.codePattern.test(text.replace(/<+$/, ''));
  if (allowed(code)) return code;
  const swaps = (LETTER_LOOK_ALIKES[code[0] ?? ''] ?? []).map((letter) => letter + code.slice(1)).filter(allowed);
  return swaps.length === 1 ? swaps[0]! : null;
}

/**
 * The repairs that make `check` hold: O and Q read as 0 alone when that holds, else those of fewest changed characters
 * (up to `maxSwaps`, every O or Q read as 0 counted); [] if none or too many. Among equally small ones, those bringing
 * in fewest letters issuers avoid.
 */
function resolveByCheck(read: string, check: string, maxSwaps: number): string[] {
  const changes = (candidate: string) => [...candidate].filter((c, i) => c !== read[i]).length;
  const text = read.replace(READ_AS_ZERO, '0');
  if (text !== read && changes(text) <= maxSwaps && mrzCheckDigit(text) === check) return [text];
  // A letter read as 0 above may still stand for one of its other look-alikes (O for 9).
  const swappable = [...text].flatMap((c, i) =>
    [...new Set([...(LOOK_ALIKES[c] ?? []), ...(c === read[i] ? [] : (LOOK_ALIKES[read[i]!] ?? []))])]
      .filter((other) => other !== c)
      .map((other) => ({ i, other })),
  );
  const solutions: string[] = [];
  const choose = (from: number, chars: string[], left: number): void => {
    const candidate = chars.join('');
    if (candidate !== text && mrzCheckDigit(candidate) === check && changes(candidate) <= maxSwaps) solutions.push(candidate);
    if (left === 0) return;
    for (let k = from; k < swappable.length; k++) {
      const { i, other } = swappable[k]!;
      const previous = chars[i]!;
      if (previous !== text[i]) continue; // one swap per position
      chars[i] = other;
      choose(k + 1, chars, left - 1);
      chars[i] = previous;
    }
  };
  choose(0, [...text], maxSwaps);
  if (solutions.length === 0) return [];
  const fewestChanges = Math.min(...solutions.map(changes));
  const smallest = solutions.filter((solution) => changes(solution) === fewestChanges);
  const rareLetters = (solution: string) => [...solution].filter((c) => RARE_IN_NUMBERS.test(c)).length;
  const fewestRare = Math.min(...smallest.map(rareLetters));
  const best = smallest.filter((solution) => rareLetters(solution) === fewestRare);
  return best.length <= MAX_SOLUTIONS ? best : [];
}

/**
 * A letters-and-digits field that holds its check digit as read, but would hold it as well with some of its I, O and
 * Q read as the digits they look like (O and 0 differ by 24, so two of them under weights 7 and 3 shift the sum by
 * 240; two I for 1 by 170): the check digit cannot tell which was printed (round 7, seed 3187: `00SF5G2EH` read
 * `OOSF5G2EH`, `0GVG0ND7U` read `OGVGOND7U`, both plainly valid). Returns the reading to keep, with O and Q as 0 when
 * that holds (letters issuers leave out of numbers), else as read; null when the check digit does tell. The composite
 * weighs a number as its own check digit does (a number starts every composite at weight 7), so it cannot tell either.
 */
function rareLetterTwin(value: string, check: string): string | null {
  const places = [...value].flatMap((c, i) => (c in RARE_LETTER_DIGIT ? [i] : [])).slice(0, MAX_RARE_PLACES);
  if (places.length === 0) return null;
  const zeros = value.replace(READ_AS_ZERO, '0');
  if (zeros !== value && mrzCheckDigit(zeros) === check) return zeros;
  for (let mask = 1; mask < 1 << places.length; mask++) {
    const chars = [...value];
    places.forEach((at, k) => {
      if (mask & (1 << k)) chars[at] = RARE_LETTER_DIGIT[chars[at]!]!;
    });
    if (mrzCheckDigit(chars.join('')) === check) return value;
  }
  return null;
}

/**
 * A failing document number read for what its O and Q must be (round 9): with every O and Q read as 0 it holds its
 * check digit, and no other reading of them (O as itself, 0 or 9; Q as itself or 0) does. O and Q are read as 0
 * before the check digit is looked at, as a class rule would, so the check digit vouches for the O and Q as for a
 * plain read; null when it does not hold, another reading holds as well (two O under weights 7 and 3 hold as 00 and
 * as 99), or there are too many to try. The rest of the number is as uncertain as a plain read's (a B for 8 twice
 * cancels in every check digit): analyse.ts reads it alone before believing it.
 */
function zerosOnly(value: string, check: string): string | null {
  const places = [...value].flatMap((c, i) => (c === 'O' || c === 'Q' ? [i] : []));
  if (places.length === 0 || places.length > MAX_RARE_PLACES) return null;
  const zeros = value.replace(READ_AS_ZERO, '0');
  if (mrzCheckDigit(zeros) !== check) return null;
  const readingsOf = (c: string) => (c === 'O' ? ['O', '0', '9'] : ['Q', '0']);
  let readings: string[] = [value];
  for (const at of places) readings = readings.flatMap((text) => readingsOf(value[at]!).map((c) => text.slice(0, at) + c + text.slice(at + 1)));
  return readings.filter((text) => mrzCheckDigit(text) === check).length === 1 ? zeros : null;
}

interface Parsed {
  lines: string[];
  fields: Map<string, string>;
  invalid: string[];
  corrections: string[];
  checkDigitRepairs: string[];
  stateRepairs: string[];
  /** How many equally small repairs each repaired field had. */
  alternatives: Map<string, number>;
}

const isState = (code: string): boolean => {
  const trimmed = code.replace(/<+$/, '');
  return trimmed in states || SPECIMEN_STATES.has(trimmed);
};

/** The one ICAO code a single letter look-alike swap turns `code` into; null when none or several do. */
export function repairStateCode(code: string): string | null {
  const options = new Set<string>();
  [...code].forEach((c, i) => {
    for (const other of LETTER_LOOK_ALIKES[c] ?? []) {
      const swapped = code.slice(0, i) + other + code.slice(i + 1);
      if (isState(swapped)) options.add(swapped);
    }
  });
  return options.size === 1 ? [...options][0]! : null;
}

const STATE_FIELDS = new Set(['issuingState', 'nationality']);

/** `picks` chooses among each field's check-digit repairs (first by default); null reads the fields as they are. */
function parseLayout(layout: Layout, rawLines: string[], picks: Record<string, number> | null = {}): Parsed {
  const lines = rawLines.map((l) => [...l]);
  const read = (line: number, start: number, end: number) => lines[line]!.slice(start, end).join('');
  const write = (line: number, start: number, text: string) => lines[line]!.splice(start, text.length, ...text);
  /** A checked field's new value; the part of a TD1 number beyond its nine places runs on into optional1. */
  const writeField = (field: FieldSpec, value: string) => {
    const width = field.end - field.start;
    write(field.line, field.start, value.slice(0, width));
    if (value.length > width) write(0, 15, value.slice(width));
  };
  const invalid: string[] = [];
  const corrections: string[] = [];
  const stateRepairs: string[] = [];
  const resolved: string[] = [];
  const alternatives = new Map<string, number>();
  const fields = new Map<string, string>();
  /** Check digits read as a letter, by field. */
  const checkLetters = new Map<string, string>();
  /** Fields read with their O and Q as 0 (zerosOnly): corrections once the composite, read as a digit, holds. */
  const readAsZeros: string[] = [];

  for (const field of layout.fields) {
    let fixed = fixClass(read(field.line, field.start, field.end), field.kind);
    if (field.name === 'documentCode') {
      const code = documentCodeFor(layout, fixed.text);
      if (code && code !== fixed.text) fixed = { text: code, changed: true };
    }
    const state = STATE_FIELDS.has(field.name) && !isState(fixed.text) ? repairStateCode(fixed.text) : null;
    if (fixed.changed) corrections.push(field.name);
    if (state) stateRepairs.push(field.name);
    write(field.line, field.start, state ?? fixed.text);
  }
  // Check digits are digits; the TD1 document number longer than nine characters runs on into optional1.
  for (const field of layout.fields) {
    if (!field.check) continue;
    const [line, at] = field.check;
    const digit = fixClass(lines[line]![at]!, 'N');
    if (digit.changed) {
      corrections.push(`${field.name}CheckDigit`);
      checkLetters.set(field.name, lines[line]![at]!);
    }
    lines[line]![at] = digit.text;
  }
  for (const field of layout.fields) {
    let value = read(field.line, field.start, field.end);
    if (field.check) {
      let [line, at] = field.check;
      if (layout.format === 'TD1' && field.name === 'documentNumber' && lines[line]![at] === '<') {
        const overflow = read(0, 15, 30).match(/^[A-Z0-9]+/)?.[0] ?? '';
        if (overflow.length >= 2) {
          value += overflow.slice(0, -1);
          at = 15 + overflow.length - 1;
          fields.set('documentNumberOverflow', overflow);
        }
      }
      const check = lines[line]![at]!;
      const empty = /^<*$/.test(value);
      const holds = mrzCheckDigit(value) === check || (field.optionalCheck && empty && check === '<');
      // A check digit read as a letter may stand for any digit the letter looks like (O for 0 or 9): the one that
      // holds with the field as read. It is always a repair: not even a composite confirms it, since the composite
      // weighs the number as its own check digit does and cannot tell look-alikes 5 apart (O as 0 or 9, Z as 2 or 7),
      // the very shift of a 9 read as O inside the number.
      const letter = at === field.check[1] ? checkLetters.get(field.name) : undefined;
      // Held as read, yet I/O/Q read as digits would hold too: a repair (review) whichever is kept.
      const twin = holds && field.kind === 'X' && !empty ? rareLetterTwin(value, check) : null;
      if (twin !== null) {
        if (twin !== value) {
          writeField(field, twin);
          value = twin;
        }
        resolved.push(field.name);
      }
      const standsFor = (LOOK_ALIKES[letter ?? ''] ?? []).find((digit) => /\d/.test(digit) && mrzCheckDigit(value) === digit);
      // Only under a composite: it confirms the check digit was read right (all but a digit read 5 off, which would
      // take a character of the number misread by 5 as well), which a visa's field has nothing to do.
      const zeros = !holds && picks && layout.composite && letter === undefined && field.name === 'documentNumber' ? zerosOnly(value, check) : null;
      if (zeros) {
        writeField(field, zeros);
        value = zeros;
        readAsZeros.push(field.name);
      } else if (!holds && standsFor) {
        lines[line]![at] = standsFor;
        resolved.push(`${field.name}CheckDigit`);
      } else if (!holds) {
        const maxSwaps = layout.composite ? MAX_CHECKED_SWAPS : MAX_UNCONFIRMED_SWAPS;
        // Without a composite to confirm it, a check digit read as a letter is a guess already: it chooses no swap
        // (it is read again from the image). With a composite, a swap may be chosen; it is a repair (review).
        const guessedCheck = letter !== undefined && !layout.composite;
        const solutions = picks && field.kind === 'X' && !guessedCheck && /\d/.test(check) ? resolveByCheck(value, check, maxSwaps) : [];
        const swapped = solutions[picks?.[field.name] ?? 0];
        if (swapped) {
          alternatives.set(field.name, solutions.length);
          value = swapped;
          resolved.push(field.name);
          writeField(field, swapped);
        } else invalid.push(`${field.name}CheckDigit`);
      }
    }
    fields.set(field.name, value);
  }
  if (layout.composite) {
    const text = layout.composite.over.map(([line, start, end]) => read(line, start, end)).join('');
    const [line, at] = layout.composite.at;
    const asRead = lines[line]![at]!;
    const digit = fixClass(asRead, 'N');
    const expected = mrzCheckDigit(text);
    const readAs = COMPOSITE_READ_AS[asRead] ?? [];
    // A letter standing for one digit only is corrected as before; one standing for several (S for 5, 6 or 8), or one
    // OCR-B's filler is read as (an L kept after the filler run may be a filler, the composite lost), is a guess the
    // composite chose, and only when no other field's repair asks the composite to confirm it.
    const plain = readAs.length <= 1 && !FILLER_NOISE.test(asRead) && digit.text === expected;
    const standsFor = !plain && picks && resolved.length === 0 && readAsZeros.length === 0 && readAs.includes(expected) ? expected : undefined;
    if (standsFor) {
      lines[line]![at] = standsFor;
      resolved.push('compositeCheckDigit');
    } else {
      if (digit.changed) corrections.push('compositeCheckDigit');
      lines[line]![at] = digit.text;
      if (expected !== digit.text) invalid.push('compositeCheckDigit');
    }
    // A composite read as a letter confirms nothing: the O and Q read as 0 are then a repair, as before.
    (asRead !== lines[line]![at] ? resolved : corrections).push(...readAsZeros);
  }

  const value = (name: string) => fields.get(name) ?? '';
  // Numbers are written from the first place on: a leading filler is a character the OCR lost or a line misplaced.
  if (value('documentNumber').startsWith('<')) invalid.push('documentNumber');
  if (!layout.codePattern.test(value('documentCode').replace(/<+$/, ''))) invalid.push('documentCode');
  if (!/^[A-Z]{1,2}<?$/.test(value('documentCode'))) invalid.push('documentCode');
  if (!isState(value('issuingState'))) invalid.push('issuingState');
  if (fields.has('nationality') && !isState(value('nationality'))) invalid.push('nationality');
  if (!/^[MFX<]$/.test(value('sex'))) invalid.push('sex');
  for (const name of ['birthDate', 'expirationDate']) {
    if (fields.has(name) && !/^\d{6}$/.test(value(name))) invalid.push(name);
  }
  return {
    lines: lines.map((l) => l.join('')),
    fields,
    invalid: [...new Set(invalid)],
    corrections: [...new Set(corrections)],
    checkDigitRepairs: resolved,
    stateRepairs,
    alternatives,
  };
}

/**
 * Parses with check-digit repairs, believed only when the composite check digit confirms them: among each field's
 * equally small repairs, the one combination the composite confirms; none or several, and the fields stay as read.
 * Without a composite (visas) every combination is "confirmed", so a repair is believed only when it is the only one.
 */
function parseWithRepairs(layout: Layout, lines: string[]): Parsed {
  const first = parseLayout(layout, lines);
  if (first.checkDigitRepairs.length === 0) return first;
  let combos: Record<string, number>[] = [{}];
  for (const [field, count] of first.alternatives) {
    combos = combos.flatMap((c) => Array.from({ length: count }, (_, k) => ({ ...c, [field]: k })));
  }
  const confirmed = combos.map((picks) => parseLayout(layout, lines, picks)).filter((p) => !p.invalid.includes('compositeCheckDigit'));
  return confirmed.length === 1 ? confirmed[0]! : parseLayout(layout, lines, null);
}

function yearOf(yy: number, kind: 'birth' | 'expiry', now: Date): number {
  const currentYy = now.getUTCFullYear() % 100;
  const century = Math.floor(now.getUTCFullYear() / 100) * 100;
  // Birth dates are in the past; expiry dates lie at most ~50 years ahead or in the recent past.
  if (kind === 'birth') return yy > currentYy ? century - 100 + yy : century + yy;
  return yy > (currentYy + 50) % 100 && yy > currentYy ? century - 100 + yy : century + yy;
}

export function mrzDate(yymmdd: string | null | undefined, kind: 'birth' | 'expiry', now: Date): string | null {
  if (!yymmdd || !/^\d{6}$/.test(yymmdd)) return null;
  const year = yearOf(Number(yymmdd.slice(0, 2)), kind, now);
  const iso = `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * The French card's MRZ has no expiry: it is the issue month (first four digits of the number) plus 15 years for
 * cards issued to adults from 2004, otherwise 10 years, ending the day before the issue day (taken as the 1st).
 */
function frenchIdExpiry(documentNumber: string, birthDate: string | null, now: Date): string | null {
  if (!/^\d{4}/.test(documentNumber)) return null;
  const issueYear = 1900 + Number(documentNumber.slice(0, 2)) + (Number(documentNumber.slice(0, 2)) < 88 ? 100 : 0);
  const issueMonth = Number(documentNumber.slice(2, 4));
  if (issueMonth < 1 || issueMonth > 12 || issueYear > now.getUTCFullYear()) return null;
  const adultAtIssue = birthDate !== null && Number(birthDate.slice(0, 4)) + 18 <= issueYear;
  const years = adultAtIssue && issueYear >= 2004 ? 15 : 10;
  return new Date(Date.UTC(issueYear + years, issueMonth - 1, 0)).toISOString().slice(0, 10);
}

const SEXES: Record<string, string> = { F: 'female', M: 'male', X: 'nonspecified', '<': 'nonspecified' };
const nameWords = (text: string): string | null => text.replace(/<+$/, '').replace(/</g, ' ').trim() || null;
const orNull = (text: string | undefined): string | null => (text ? text.replace(/<+$/, '') || null : null);

/**
 * A name field holds `<<` between surname and given names (ICAO 9303 keeps it when it truncates). OCR-B's '<' is read
 * as '<', `K`, `<K` or `K<`, and the name field has no check digit to catch it, so where the layout expects a filler
 * and a K stands there the K is taken for one:
 * - the separator read `<K<K` (each '<' as `<K`) or `<K<`: a K alone between single fillers before any `<<` is no
 *   part of a surname (`KOWALSKA<K<KBRIDGET`, or `ERIKSSON<K<KANNA<<…` where OCR noise in the tail read `<<`);
 * - with no `<<` before the filler tail, the separator read `K<K` (`SILVAK<KSOFIA`);
 * - after the given names, three fillers or more start the filler tail, which ICAO fills to the end: letters past
 *   them are OCR noise in it (`ANNA<MARIA<<<<II`);
 * - a run of four or more of K, L, C and S glued to the last word, mixing letters, before the filler tail
 *   (`SOFIAKCKC<<<`): the tail's fillers read as letters, too long and mixed for a name's ending (-LLS, -CKS).
 * A K glued to a word beside one filler (`<<KLUCAS`, `ANNA<KMARIAK`) stays as read: KARL, KIM and ERIK look the same.
 */
function separatedName(name: string): string {
  const body = name.replace(/<+$/, '');
  const loneK = body.search(/<K<K?/);
  const separator = body.indexOf('<<');
  const separated =
    loneK >= 0 && (separator < 0 || loneK < separator) ? body.replace(/<K<K?/, '<<') : separator < 0 ? body.replace(/([A-Z])K<K([A-Z])/, '$1<<$2') : body;
  return separated
    .replace(/^(.*?<<[^<].*?)<{3,}.*$/, '$1')
    .replace(/([A-Z])([KLCS]{4,})$/, (word, last: string, run: string) => (new Set(run).size > 1 ? last : word));
}

function toReading(layout: Layout, parsed: Parsed, now: Date): MrzReading {
  const value = (name: string) => parsed.fields.get(name);
  let lastName: string | null;
  let firstName: string | null;
  if (layout.format === 'FRA_ID') {
    lastName = nameWords(value('lastName') ?? '');
    firstName = nameWords((value('firstName') ?? '').replace(/<</g, '<'));
  } else {
    const [last = '', ...given] = separatedName(value('name') ?? '').split('<<');
    lastName = nameWords(last);
    firstName = nameWords(given.join('<'));
  }
  const birthDate = mrzDate(value('birthDate'), 'birth', now);
  const documentNumber = orNull(value('documentNumber'));
  const issuingState = orNull(value('issuingState'));
  const nationality = layout.format === 'FRA_ID' ? issuingState : orNull(value('nationality'));
  const optional1 = value('optional1')?.slice(value('documentNumberOverflow')?.length ?? 0);
  const personalNumber = orNull(value('personalNumber') ?? optional1 ?? value('office'));
  return {
    format: layout.format,
    lines: parsed.lines,
    valid: parsed.invalid.length === 0,
    invalidFields: parsed.invalid,
    corrections: parsed.corrections,
    checkDigitRepairs: parsed.checkDigitRepairs,
    stateRepairs: parsed.stateRepairs,
    uncertainCharacters: [],
    specimen: [issuingState, nationality].some((s) => s !== null && SPECIMEN_STATES.has(s)),
    documentCode: orNull(value('documentCode')),
    issuingState,
    documentNumber,
    nationality,
    lastName,
    firstName,
    birthDate,
    expiryDate:
      layout.format === 'FRA_ID' ? frenchIdExpiry(documentNumber ?? '', birthDate, now) : mrzDate(value('expirationDate'), 'expiry', now),
    sex: SEXES[value('sex') ?? ''] ?? null,
    personalNumber: personalNumber?.replace(/</g, '') || null,
  };
}

const layoutOf = (format: MrzFormat): Layout => LAYOUTS.find((layout) => layout.format === format)!;

/**
 * What vouches for character `index` of line `line` of a `format` MRZ: the field holding it when a check digit covers
 * that field (its own or the composite), `<field>CheckDigit` for a check digit itself, `compositeCheckDigit` for the
 * composite; null for characters no check digit covers (names, states, sex, the document code).
 */
export function checkedPlace(format: MrzFormat, line: number, index: number): string | null {
  const layout = layoutOf(format);
  for (const field of layout.fields) if (field.check?.[0] === line && field.check[1] === index) return `${field.name}CheckDigit`;
  if (layout.composite?.at[0] === line && layout.composite.at[1] === index) return 'compositeCheckDigit';
  const covered = (layout.composite?.over ?? []).some(([l, start, end]) => l === line && index >= start && index < end);
  const field = layout.fields.find((f) => f.line === line && index >= f.start && index < f.end);
  return field && (field.check || covered) ? field.name : null;
}

/** The layout field of a `format` MRZ holding character `index` of line `line`, checked or not; null for check digits. */
export function fieldAt(format: MrzFormat, line: number, index: number): string | null {
  return layoutOf(format).fields.find((f) => f.line === line && index >= f.start && index < f.end)?.name ?? null;
}

/**
 * The field of a valid reading holding character `index` of line `line` when a check digit covers it (its own or the
 * composite), with its class: the TD1 number's overflow counts as the number. null for check digits and for
 * characters no check digit covers.
 */
export function checkedFieldAt(reading: MrzReading, line: number, index: number): { name: string; kind: CharClass } | null {
  const overflow = reading.format === 'TD1' ? Math.max(0, (reading.documentNumber?.length ?? 0) - 9) : 0;
  if (overflow > 0 && line === 0 && index >= 15 && index < 15 + overflow) return { name: 'documentNumber', kind: 'X' };
  if (overflow > 0 && line === 0 && index === 15 + overflow) return null;
  const place = checkedPlace(reading.format, line, index);
  const field = layoutOf(reading.format).fields.find((f) => f.name === place);
  return field ? { name: field.name, kind: field.kind } : null;
}

/** Whether a composite check digit covers a `format` MRZ's data (every format but the visas). */
export function hasComposite(format: MrzFormat): boolean {
  return layoutOf(format).composite !== undefined;
}

/** Every check digit of `lines` (composite included) holds as they stand, with no repair. */
export function checkDigitsHold(format: MrzFormat, lines: string[]): boolean {
  return !parseLayout(layoutOf(format), lines, null).invalid.some((name) => name.endsWith('CheckDigit'));
}

/** Where a check digit sits; `field` is the field it covers, or `composite`. */
export interface CheckDigitPlace {
  field: string;
  line: number;
  index: number;
}

/**
 * Failing check digits the OCR read no digit for: a filler, a letter (whether or not a look-alike stood in for it), or
 * a character dropped and the line padded. The image can be read again at that place.
 */
export function unreadCheckDigits(reading: MrzReading): CheckDigitPlace[] {
  const layout = layoutOf(reading.format);
  const places: CheckDigitPlace[] = layout.fields.flatMap((field) => (field.check ? [{ field: field.name, line: field.check[0], index: field.check[1] }] : []));
  if (layout.composite) places.push({ field: 'composite', line: layout.composite.at[0], index: layout.composite.at[1] });
  // A TD1 number longer than nine characters has a filler where its check digit would be, and its check digit after.
  const overflowing = (place: CheckDigitPlace) => place.field === 'documentNumber' && (reading.documentNumber?.length ?? 0) > 9;
  return places.filter((place) => {
    const name = `${place.field}CheckDigit`;
    const readAsDigit = /\d/.test(reading.lines[place.line]?.[place.index] ?? '') && !reading.corrections.includes(name);
    return reading.invalidFields.includes(name) && !overflowing(place) && !readAsDigit;
  });
}

/**
 * The reading again with check digits a second OCR pass read from the image (digits only) at places the first pass
 * left without one. The digit always comes from the image, never from the check-digit computation, so a tampered
 * field still fails. A re-read field check digit that the composite (read in the first pass) confirms is listed in
 * `corrections`; without that independent support (visas, or the composite itself re-read too) it is listed in
 * `checkDigitRepairs` and sends the document to review. A re-read composite is a correction: every field it covers
 * has its own check digit. A digit marked `repair` (read only at a second try: another place or a denoised cell) is
 * always a check-digit repair.
 */
export function withRereadCheckDigits(
  reading: MrzReading,
  reread: { place: CheckDigitPlace; digit: string; repair?: boolean }[],
  now: Date,
): MrzReading {
  const layout = layoutOf(reading.format);
  const lines = reading.lines.map((line) => [...line]);
  for (const { place, digit } of reread) {
    if (!/^\d$/.test(digit)) throw new Error(`not a digit: ${digit}`);
    lines[place.line]![place.index] = digit;
  }
  const parsed = parseWithRepairs(layout, lines.map((line) => line.join('')));
  const compositeReread = reread.some(({ place }) => place.field === 'composite');
  const corrections = [...reading.corrections, ...parsed.corrections];
  // The lines already carry the first pass's repairs: they stay listed, or a repaired field would read plainly valid.
  const checkDigitRepairs = [...reading.checkDigitRepairs, ...parsed.checkDigitRepairs];
  for (const { place, repair = false } of reread) {
    const confirmed = !repair && (place.field === 'composite' || (layout.composite !== undefined && !compositeReread));
    (confirmed ? corrections : checkDigitRepairs).push(`${place.field}CheckDigit`);
  }
  return toReading(layout, { ...parsed, corrections: [...new Set(corrections)], checkDigitRepairs: [...new Set(checkDigitRepairs)] }, now);
}

/** Lower is better: valid first, then fewer invalid fields, lines closer to the layout's length, fewer repairs. */
const rank = (r: MrzReading, lengthMismatch: number) =>
  (r.valid ? 0 : 1_000_000) + r.invalidFields.length * 100 + lengthMismatch * 10 + r.corrections.length + 2 * (r.checkDigitRepairs.length + r.stateRepairs.length);

/**
 * The checked field a line variant's edit decides: the one holding the edit (its characters or its check digit), or
 * the next one on the line, which the edit shifts. Which of the characters the OCR added or lost is dropped is then
 * chosen by that field's check digit, as a look-alike swap is.
 */
function editedField(layout: Layout, edit: Candidate['edit']): string | null {
  if (!edit) return null;
  const checked = layout.fields.filter((f) => f.check && f.line === edit.line && f.check[0] === edit.line && edit.at <= f.check[1]);
  const own = checked.sort((a, b) => a.check![1] - b.check![1])[0];
  if (own) return own.name;
  // Past the last own check digit of its line, an edit in data the composite covers was placed by the composite
  // (round 18, seed 3319: a TD1 first line read `I<KIRL…` lost a digit of its optional data where the composite then
  // held, with the number shifted by the K and holding its own check digit by chance).
  const shifted = layout.fields.filter((f) => f.line === edit.line && f.end > edit.at && compositeCovers(layout, f));
  return shifted.sort((a, b) => a.start - b.start)[0]?.name ?? null;
}

/**
 * A reading of the first line without the K after its document code (withoutSplitFiller) is plain only when that K is
 * unambiguous: it could start no state (K and the state's first two letters are no ICAO code), no reading keeping it
 * holds with other checked data, and the line without it has the layout's length (`refitted`: a character lost or
 * added in the composite's data, taken for a filler by fitLength, leaves the composite holding by chance; the tamper
 * probes of round 18 found a changed number, its check digit recomputed, read plainly valid after a K and a lost or an
 * added character). Otherwise the state is a repair, and so is the first checked field of the line, which the K shifted.
 */
function withSplitFillerDoubts(reading: MrzReading, refitted: boolean, valid: { data: string; keptSplitFiller: boolean }[]): MrzReading {
  const layout = layoutOf(reading.format);
  const kCouldStartState = isState(`K${reading.lines[0]!.slice(2, 4)}`);
  const keptHolds = valid.some((other) => other.keptSplitFiller && other.data !== checkedData(reading));
  if (!kCouldStartState && !keptHolds && !refitted) return reading;
  const shifted = editedField(layout, { line: 0, at: 2 });
  return {
    ...reading,
    stateRepairs: kCouldStartState ? [...new Set([...reading.stateRepairs, 'issuingState'])] : reading.stateRepairs,
    checkDigitRepairs: shifted ? [...new Set([...reading.checkDigitRepairs, shifted])] : reading.checkDigitRepairs,
  };
}

/** What a reading says of the holder and the document where check digits cover it. */
const checkedData = (r: MrzReading) => [r.format, r.documentNumber, r.birthDate, r.expiryDate, r.personalNumber].join('|');
/** Characters a reading changed in the lines it was parsed from. */
const changedCharacters = (r: MrzReading, lines: string[]) => r.lines.reduce((sum, line, k) => sum + [...line].filter((c, i) => c !== lines[k]![i]).length, 0);

/**
 * The best MRZ in OCR text: a valid one with the fewest repairs if any, otherwise the one with the fewest faults.
 * A character the OCR added to or dropped from a line is placed where the check digits hold: a reading so placed in or
 * before a checked field is a check-digit repair (review). When another reading with other data also holds, the
 * check digits could not tell which is printed and the reading is invalid: on a visa (one check digit to choose by)
 * whatever it took, otherwise when it took no more changed characters.
 */
export function readMrz(ocrText: string, now: Date = new Date()): MrzReading | null {
  let best: { reading: MrzReading; rank: number; edit: Candidate['edit']; guessed: string | null; changes: number; splitFiller: Candidate['splitFiller']; refitted: Candidate['refitted'] } | null = null;
  const valid: { data: string; changes: number; keptSplitFiller: boolean }[] = [];
  for (const candidate of candidates(ocrText)) {
    const { layout, lines, lengthMismatch, edit, splitFiller, refitted } = candidate;
    const guessed = editedField(layout, edit);
    const parsed = parseWithRepairs(layout, lines);
    const repaired = guessed ? { ...parsed, checkDigitRepairs: [...new Set([...parsed.checkDigitRepairs, guessed])] } : parsed;
    const reading = toReading(layout, repaired, now);
    const changes = changedCharacters(reading, lines);
    // A reading keeping a K after the document code only with its state repaired is no rival of the one dropping it.
    if (reading.valid) valid.push({ data: checkedData(reading), changes, keptSplitFiller: !splitFiller && reading.stateRepairs.length === 0 });
    // Between equal ranks, the reading that changed fewer characters of what was read.
    const candidateRank = rank(reading, lengthMismatch) + changes / 1000;
    if (!best || candidateRank < best.rank) best = { reading, rank: candidateRank, edit, guessed, changes, splitFiller, refitted };
    if (best.rank === 0) break;
  }
  // Flagged once chosen, not ranked: the repair must not let a rival reading with fewer flags win instead.
  const shifted = (best?.refitted ?? []).filter((name): name is string => name !== null);
  if (best?.reading.valid && shifted.length > 0) best = { ...best, reading: { ...best.reading, checkDigitRepairs: [...new Set([...best.reading.checkDigitRepairs, ...shifted])] } };
  if (best?.splitFiller && best.reading.valid) best = { ...best, reading: withSplitFillerDoubts(best.reading, best.splitFiller.refitted, valid) };
  if (best?.edit && best.reading.valid) {
    const { reading, changes } = best;
    const onlyOneCheck = !layoutOf(reading.format).composite;
    const rival = valid.some((other) => other.data !== checkedData(reading) && (onlyOneCheck || other.changes <= changes));
    if (rival) return { ...reading, valid: false, invalidFields: [`${best.guessed ?? 'composite'}CheckDigit`] };
  }
  return best?.reading ?? null;
}
