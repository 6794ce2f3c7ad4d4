// A check's record as an analyst reads it: every field by its name in words, nested objects as nested lists,
// lists of scalars on one line, reasons and matches as items. Generic over every kind, so a new kind's record
// needs nothing here.
import { type Html, badge, html } from '../http/html.ts';

/** `riskLevel` → "Risk level", `matchedNameKind` → "Matched name kind". */
function label(key: string): string {
  const words = key.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const OUTCOME_FIELDS = new Set(['status', 'result', 'outcome', 'decision', 'action']);

function scalar(key: string, value: string | number | boolean | null): Html | string {
  if (value === null) return '—';
  if (typeof value === 'string' && OUTCOME_FIELDS.has(key) && /^[a-z_]+$/.test(value)) return badge(value);
  return String(value);
}

function view(key: string, value: unknown, depth: number): Html | string {
  if (value === null || typeof value !== 'object') return scalar(key, value as string | number | boolean | null);
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="muted">none</span>`;
    if (value.every((item) => item === null || typeof item !== 'object')) return value.map(String).join(', ');
    return html`<ol class="record-list">${value.map((item) => html`<li>${view(key, item, depth + 1)}</li>`)}</ol>`;
  }
  const entries = Object.entries(value);
  if (depth > 6) return html`<code>${JSON.stringify(value)}</code>`;
  return html`<dl class="facts record">${entries.map(([name, inner]) => html`<dt>${label(name)}</dt><dd>${view(name, inner, depth + 1)}</dd>`)}</dl>`;
}

export function recordView(record: Record<string, unknown>): Html {
  return html`${view('', record, 0)}`;
}
