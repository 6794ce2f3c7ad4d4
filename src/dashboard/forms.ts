import { Type, type TProperties } from 'typebox';
import { DomainError } from '../errors.ts';
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
