// RFC 4180 reader shared by the OFAC, UK, EU and DPL parsers. Publishers' files are small enough (a few MB)
// to be read whole; a hand-rolled reader avoids a dependency and handles the quirks below in one place.

export interface CsvOptions {
  delimiter?: string;
}

/** Splits CSV/TSV text into rows of fields. Quoted fields may contain delimiters, quotes ("") and newlines. */
export function parseCsv(text: string, options: CsvOptions = {}): string[][] {
  const delimiter = options.delimiter ?? ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let inQuotes = false;
  let fieldStarted = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else {
        field += ch;
      }
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      inQuotes = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = '';
      fieldStarted = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
      field = '';
      fieldStarted = false;
    } else if (ch === '\u001a' || (ch === '\ufeff' && i === 0)) {
      // OFAC files end with a DOS end-of-file byte; UTF-8 exports may start with a BOM.
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (fieldStarted || field !== '' || row.length > 0) {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
  }
  return rows;
}

/** Rows as records keyed by the header row's names (trimmed). */
export function recordsFromRows(header: string[], rows: string[][]): Array<Record<string, string>> {
  const keys = header.map((h) => h.trim());
  return rows.map((row) => {
    const record: Record<string, string> = {};
    keys.forEach((key, i) => {
      record[key] = (row[i] ?? '').trim();
    });
    return record;
  });
}
