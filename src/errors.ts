// Failures a domain reports, with no HTTP in them: src/http/errors.ts maps each code to the contract's error body
// once. Field issues name the field by JSON Pointer into the request (`/queries/0/name`; '' is the whole body).

export interface FieldIssue {
  /** JSON Pointer into the request part named by the error's `location`. */
  path: string;
  message: string;
}

export type DomainErrorCode =
  /** The request cannot be acted on as sent; `issues` say where. */
  | 'invalid_input'
  /** A text the caller sent is longer than the service accepts. */
  | 'too_large'
  /** No sanctions list is loaded, so no name can be screened. */
  | 'lists_unavailable'
  /** An engine the check needs (KYC workers) could not run; retrying later may work. */
  | 'engine_unavailable'
  /** No screening model judged a prompt and no blocking signature matched: nothing is allowed. */
  | 'not_screened'
  /** The thing named does not exist for this tenant (another tenant's is the same to the caller). */
  | 'not_found'
  /** The request is valid but the state of what it names forbids it now (a check not awaiting review). */
  | 'conflict';

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly issues: FieldIssue[];
  /** Which part of the request the pointers point into. */
  readonly location: 'body' | 'querystring';
  /** Facts the caller gets with the error (a stored verification's id, …). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: DomainErrorCode,
    message: string,
    options: { issues?: FieldIssue[]; location?: 'body' | 'querystring'; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.issues = options.issues ?? [];
    this.location = options.location ?? 'body';
    this.details = options.details;
  }

  static invalid(issues: FieldIssue[], location: 'body' | 'querystring' = 'body'): DomainError {
    return new DomainError('invalid_input', 'The request is invalid', { issues, location });
  }
}
