// Reading documents without an MRZ from their OCR text: the holder's name, an address and dates.

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10,
  november: 11, december: 12,
};

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 ? d.toISOString().slice(0, 10) : null;
}

const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** Every calendar date written in the text (ISO, day-first numeric, "3 March 2025", "March 3, 2025"). */
export function findDates(text: string): string[] {
  const dates: (string | null)[] = [];
  for (const m of text.matchAll(/\b(\d{4})[-./](\d{1,2})[-./](\d{1,2})\b/g)) dates.push(isoDate(+m[1]!, +m[2]!, +m[3]!));
  // Day-first is the reading everywhere except the US; a US month-first date that is not a valid day-first one still parses.
  for (const m of text.matchAll(/\b(\d{1,2})[-./](\d{1,2})[-./](\d{4})\b/g)) {
    dates.push(isoDate(+m[3]!, +m[2]!, +m[1]!) ?? isoDate(+m[3]!, +m[1]!, +m[2]!));
  }
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_NAME}\\.?,?\\s+(\\d{4})\\b`, 'gi'))) {
    dates.push(isoDate(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!));
  }
  for (const m of text.matchAll(new RegExp(`\\b${MONTH_NAME}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'))) {
    dates.push(isoDate(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!));
  }
  return [...new Set(dates.filter((d): d is string => d !== null))].sort();
}

/** The document's issue date: the latest date in the text that is not in the future. */
export function latestPastDate(dates: string[], now: Date): string | null {
  const today = now.toISOString().slice(0, 10);
  return dates.filter((d) => d <= today).at(-1) ?? null;
}

const STREET_WORDS =
  /\b(street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|close|place|pl|court|ct|boulevard|blvd|terrace|crescent|square|sq|highway|hwy|rue|chemin|via|viale|piazza|calle|avenida|plaza|ulica|ul)\b|(gatan|gata|vägen|väg|straße|strasse|str|weg|gasse|platz|allee|gade|vej|straat|laan|plein)\b/i;
const POSTCODE =
  /\b([A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}|\d{5}(?:-\d{4})?|\d{4}\s?[A-Z]{2}|\d{3}\s\d{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4})\b/;
const NUMERIC_DATE = /\d{1,2}[-./]\d{1,2}[-./]\d{2,4}/;

/** A line that looks like a postal address: a house number with a street word, else a postcode with a place name. */
export function findAddress(text: string): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length >= 6);
  const street = lines.find((l) => /\b\d{1,5}[a-z]?\b/i.test(l) && STREET_WORDS.test(l));
  return street ?? lines.find((l) => POSTCODE.test(l) && /[A-Za-z]{3,}/.test(l) && !NUMERIC_DATE.test(l)) ?? null;
}
