// Reading stored records (plain JSON) into content blocks. Producers name the fields they know; everything
// else a domain stores still reaches the report through `otherFieldsSection`, so a field added to a record
// is never silently missing from its report.
import { formatCell, formatUtc, type Block, type CellValue, type Section } from './content.ts';

export type JsonRecord = Record<string, unknown>;

/** [field name, label] pairs, in the order the report shows them. */
export type FieldLabels = ReadonlyArray<readonly [field: string, label: string]>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord {
  return isRecord(value) ? value : {};
}

export function recordList(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** One printable value: timestamps in UTC, lists joined, nested objects as "key: value" pairs. */
export function cell(value: unknown): CellValue {
  if (typeof value === 'string' && ISO_TIMESTAMP.test(value)) return formatUtc(new Date(value));
  if (value === null || value === undefined || typeof value !== 'object') return value as CellValue;
  if (Array.isArray(value)) {
    return value.length === 0 ? 'none' : value.map((item) => (isRecord(item) ? `(${pairs(item)})` : formatCell(cell(item)))).join(', ');
  }
  return pairs(value as JsonRecord);
}

function pairs(record: JsonRecord): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? 'none' : entries.map(([key, inner]) => `${key}: ${formatCell(cell(inner))}`).join('; ');
}

/** "riskLevel" → "Risk level", "promptSha256" → "Prompt sha256". */
export function humanize(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Key/value rows for the named fields that are present in the record. */
export function fieldRows(record: JsonRecord, fields: FieldLabels): Block {
  return {
    kind: 'keyValue',
    rows: fields.filter(([field]) => field in record).map(([field, label]) => [label, cell(record[field])] as const),
  };
}

export function tableOf(
  items: readonly JsonRecord[],
  columns: ReadonlyArray<readonly [field: string, header: string, weight?: number]>,
  emptyText: string,
): Block {
  return {
    kind: 'table',
    columns: columns.map(([, header, weight]) => ({ header, weight })),
    rows: items.map((item) => columns.map(([field]) => cell(item[field]))),
    emptyText,
  };
}

/** Any object laid out without knowing its shape: scalar leaves as rows, arrays of objects as tables. */
export function genericBlocks(record: JsonRecord): Block[] {
  const rows: Array<readonly [string, CellValue]> = [];
  const tables: Block[] = [];
  const visit = (value: unknown, label: string) => {
    if (isRecord(value)) {
      for (const [key, inner] of Object.entries(value)) visit(inner, label ? `${label} › ${humanize(key)}` : humanize(key));
    } else if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
      const keys = [...new Set(value.flatMap((item) => Object.keys(item)))];
      tables.push({ kind: 'paragraph', text: label });
      tables.push(tableOf(value, keys.map((key) => [key, humanize(key)] as const), 'none'));
    } else {
      rows.push([label, cell(value)]);
    }
  };
  visit(record, '');
  return rows.length > 0 ? [{ kind: 'keyValue', rows }, ...tables] : tables;
}

/** Everything in the record that the producer did not lay out itself. */
export function otherFieldsSection(record: JsonRecord, shownFields: readonly string[]): Section[] {
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => !shownFields.includes(key)));
  if (Object.keys(rest).length === 0) return [];
  return [{ title: 'Other recorded fields', blocks: genericBlocks(rest) }];
}
