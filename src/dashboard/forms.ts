import { Type, type TProperties } from 'typebox';
import { SCOPES, type Scope, isScope } from '../accounts/scopes.ts';
import { DomainError } from '../errors.ts';
import { type Html, html } from '../http/html.ts';
import { toContractError } from '../http/errors.ts';

/**
 * A form's body: its fields, plus the CSRF token, and nothing else. The token is optional to the schema so that a
 * form without one is refused by the access hook as a CSRF failure (403), not as a malformed body.
 */
export function formBody<Fields extends TProperties>(fields: Fields) {
  return Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })), ...fields }, { additionalProperties: false });
}

/** A domain's refusal as a form shows it (status and sentence); anything else is rethrown. */
export function refusal(error: unknown): { status: number; text: string } {
  if (!(error instanceof DomainError)) throw error;
  const { status } = toContractError(error);
  const text = error.issues.length ? error.issues.map((issue) => `${issue.path.replace(/^\//, '') || 'value'} ${issue.message}`).join('; ') : error.message;
  return { status, text };
}

/** A form's scope checkboxes: one name when one is ticked, a list when several are, absent when none. */
export const ScopesField = Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 })]));

/** The scopes a form ticked (none ticked: every scope), or the names it sent that are no scope. */
export function tickedScopes(value: string | string[] | undefined): { scopes: Scope[] } | { unknown: string[] } {
  const ticked = value === undefined ? [...SCOPES] : [value].flat();
  const unknown = ticked.filter((scope) => !isScope(scope));
  return unknown.length ? { unknown } : { scopes: ticked.filter(isScope) };
}

export function scopeCheckboxes(legend: string): Html {
  return html`<fieldset><legend>${legend} (none ticked: all)</legend>${SCOPES.map((scope) => html`<label><span><input type="checkbox" name="scopes" value="${scope}"> ${scope}</span></label>`)}</fieldset>`;
}
