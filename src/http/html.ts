// Server-rendered pages: a tagged template that escapes every interpolated value unless it is already Html.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, text, index) => out + text + (index < values.length ? render(values[index]) : ''), ''));
}

/** A date-time as people read it, in UTC, with the exact value for machines. */
export function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">never</span>`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function badge(status: string): Html {
  return html`<span class="badge badge-${status.replace(/[^a-z_]/g, '')}">${status.replace(/_/g, ' ')}</span>`;
}
