// Publishers write dates of birth in many ways ("10 Dec 1948", "circa 1960", "1955 to 1958", "00/00/1961",
// "1961-03-04"). They become ISO prefixes (see ListEntity.birthDates) so that qualifiers compare like with like.

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function validYear(year: number): boolean {
  return year >= 1850 && year <= 2100;
}

function isoPrefix(year: number, month?: number, day?: number): string | undefined {
  if (!validYear(year)) return undefined;
  if (!month || month < 1 || month > 12) return String(year);
  if (!day || day < 1 || day > 31) return `${year}-${pad(month)}`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** One date expression → ISO prefix or `YYYY/YYYY` range; undefined when no year can be read. */
export function parseLooseDate(raw: string): string | undefined {
  const text = raw.trim().toLowerCase().replace(/^(circa|approximately|approx\.?|about|c\.)\s*/, '');
  let m = /^(\d{4})\s*(?:to|-|–|\/)\s*(\d{4})$/.exec(text);
  if (m) {
    const from = Number(m[1]);
    const to = Number(m[2]);
    return validYear(from) && validYear(to) && from < to ? `${from}/${to}` : isoPrefix(from);
  }
  m = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?/.exec(text);
  if (m) return isoPrefix(Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : undefined);
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(text);
  if (m) return isoPrefix(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (m && MONTHS[m[2]]) return isoPrefix(Number(m[3]), MONTHS[m[2]], Number(m[1]));
  m = /^([a-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (m && MONTHS[m[1]]) return isoPrefix(Number(m[2]), MONTHS[m[1]]);
  m = /^(\d{4})$/.exec(text);
  if (m) return isoPrefix(Number(m[1]));
  return undefined;
}

/** Checks a query's dateOfBirth: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, a real calendar date, not in the future. */
export function isValidQueryDate(value: string, today = new Date()): boolean {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1850) return false;
  const month = m[2] ? Number(m[2]) : 1;
  const day = m[3] ? Number(m[3]) : 1;
  if (month < 1 || month > 12) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  return date.getTime() <= today.getTime();
}
