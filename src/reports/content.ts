// The declarative content model: producers describe a report as data, one renderer lays it out.
// Producers never touch pdfkit, so every report shares the same layout, fonts and determinism.

export type CellValue = string | number | boolean | null | undefined;

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'keyValue'; rows: ReadonlyArray<readonly [label: string, value: CellValue]> }
  | {
      kind: 'table';
      /** `weight` is the column's share of the width (default 1). */
      columns: ReadonlyArray<{ header: string; weight?: number }>;
      rows: ReadonlyArray<ReadonlyArray<CellValue>>;
      /** Shown instead of an empty table, so "nothing found" is stated rather than implied. */
      emptyText: string;
    }
  | { kind: 'list'; items: readonly string[]; emptyText: string };

export interface Section {
  title: string;
  blocks: readonly Block[];
}

export interface ReportContent {
  sections: readonly Section[];
}

/** A field that was not recorded is shown as a dash, never as an empty cell that could be misread. */
export const NOT_RECORDED = '—';

export function formatCell(value: CellValue): string {
  if (value === null || value === undefined || value === '') return NOT_RECORDED;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export function formatUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
