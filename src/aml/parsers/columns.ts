// Header-driven access to CSV records whose column names vary between versions of a publisher's format.

export function column(record: Record<string, string>, ...names: string[]): string {
  for (const name of names) {
    const value = record[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return '';
}

/** Index of the first header cell equal (case-insensitively) to one of `names`, or -1. */
export function headerIndex(header: string[], ...names: string[]): number {
  const wanted = names.map((n) => n.toLowerCase());
  return header.findIndex((cell) => wanted.includes(cell.trim().toLowerCase()));
}

/** Record keyed by lower-cased header names; the first occurrence wins when a header repeats (own keys only: a
 * "constructor" column is a column like any other). */
export function lowerCaseRecord(header: string[], row: string[]): Record<string, string> {
  const record: Record<string, string> = {};
  header.forEach((cell, i) => {
    const key = cell.trim().toLowerCase();
    if (!Object.hasOwn(record, key) || record[key] === '') record[key] = (row[i] ?? '').trim();
  });
  return record;
}
