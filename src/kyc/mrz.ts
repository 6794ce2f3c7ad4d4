// Finds a machine-readable zone in OCR output and verifies it with `mrz` (ICAO 9303: TD1, TD2, TD3).
import { parse, type ParseResult } from 'mrz';

export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export interface MrzReading {
  format: MrzFormat;
  lines: string[];
  /** Every field, check digits included, is well formed and every check digit matches. */
  valid: boolean;
  /** `mrz` field names that failed (e.g. documentNumberCheckDigit, birthDate, issuingState). */
  invalidFields: string[];
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

const LAYOUTS: { format: MrzFormat; lines: number; length: number }[] = [
  { format: 'TD3', lines: 2, length: 44 },
  { format: 'TD2', lines: 2, length: 36 },
  { format: 'TD1', lines: 3, length: 30 },
];
/** OCR may drop or add a couple of filler characters; more than this and the line is not an MRZ line. */
const LENGTH_SLACK = 3;

function cleanLine(line: string): string {
  return line.toUpperCase().replace(/\s+/g, '').replace(/«/g, '<<').replace(/‹/g, '<').replace(/[^A-Z0-9<]/g, '');
}

/** Brings a line to the layout length by growing or shrinking its longest run of fillers (where OCR miscounts). */
function fitLength(line: string, length: number): string {
  if (line.length === length) return line;
  const runs = [...line.matchAll(/<{2,}/g)];
  const longest = runs.sort((a, b) => b[0].length - a[0].length)[0];
  if (!longest || longest.index === undefined) return line.padEnd(length, '<').slice(0, length);
  const delta = length - line.length;
  const runLength = Math.max(1, longest[0].length + delta);
  const fitted = line.slice(0, longest.index) + '<'.repeat(runLength) + line.slice(longest.index + longest[0].length);
  return fitted.padEnd(length, '<').slice(0, length);
}

function candidates(text: string): { format: MrzFormat; lines: string[] }[] {
  const lines = text.split(/\r?\n/).map(cleanLine).filter((l) => l.length >= 26);
  const found: { format: MrzFormat; lines: string[] }[] = [];
  for (const layout of LAYOUTS) {
    for (let i = 0; i + layout.lines <= lines.length; i++) {
      const group = lines.slice(i, i + layout.lines);
      if (group.every((l) => Math.abs(l.length - layout.length) <= LENGTH_SLACK) && group.some((l) => l.includes('<<'))) {
        found.push({ format: layout.format, lines: group.map((l) => fitLength(l, layout.length)) });
      }
    }
  }
  return found;
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

function toReading(format: MrzFormat, lines: string[], result: ParseResult, now: Date): MrzReading {
  const f = result.fields;
  const raw = (field: string): string | null => {
    const detail = result.details.find((d) => d.field === field);
    return detail ? (lines[detail.line]?.slice(detail.start, detail.end) ?? null) : null;
  };
  return {
    format,
    lines,
    valid: result.valid,
    invalidFields: result.details.filter((d) => !d.valid && d.field).map((d) => d.field as string),
    documentCode: f.documentCode ?? null,
    issuingState: f.issuingState ?? null,
    documentNumber: result.documentNumber ?? f.documentNumber ?? null,
    nationality: f.nationality ?? null,
    lastName: f.lastName ?? null,
    firstName: f.firstName ?? null,
    birthDate: mrzDate(f.birthDate ?? raw('birthDate'), 'birth', now),
    expiryDate: mrzDate(f.expirationDate ?? raw('expirationDate'), 'expiry', now),
    sex: f.sex ?? null,
    personalNumber: f.personalNumber ?? null,
  };
}

/** The best MRZ in OCR text: a fully valid one if any, otherwise the one with the fewest invalid fields. */
export function readMrz(ocrText: string, now: Date = new Date()): MrzReading | null {
  let best: MrzReading | null = null;
  for (const candidate of candidates(ocrText)) {
    let result: ParseResult;
    try {
      result = parse(candidate.lines, { autocorrect: true });
    } catch {
      continue;
    }
    const reading = toReading(candidate.format, candidate.lines, result, now);
    if (!best || reading.invalidFields.length < best.invalidFields.length) best = reading;
    if (reading.valid) break;
  }
  return best;
}
