import { Type, type TSchema } from 'typebox';

export const ErrorBody = Type.Object(
  {
    code: Type.String({ description: 'Machine-readable error code from the contract' }),
    message: Type.String(),
    requestId: Type.String({ description: 'Also sent as the X-Request-Id header' }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    reasons: Type.Optional(Type.Array(Type.Object({ type: Type.String(), reason: Type.String() }))),
    resetsAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { $id: 'ErrorBody', additionalProperties: true, description: 'Every non-2xx answer' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`invalid_request`, with `errors[]`)',
  401: 'Missing, malformed, unknown, revoked or expired credential (`unauthorized`)',
  403: 'The credential lacks the permission (`forbidden`)',
  404: 'No such resource for this tenant (`not_found`)',
  409: 'The resource is in a state that cannot answer (`bundle_failed` with `failureReason`; `conflict`)',
  410: 'Gone',
  413: 'Body over the limit (`payload_too_large`)',
  415: 'Unsupported content type',
  422: 'Unprocessable (`idempotency_key_reused`: an Idempotency-Key sent with another body; `unsigned_certificate`)',
  429: '`rate_limited` (flood limiter), `DAILY_CAP_EXCEEDED` or `MONTHLY_QUOTA_EXCEEDED`, with `resetsAt`',
  501: 'Planned but not produced (`not_implemented`)',
  503: 'Unavailable',
};

const errorRef = (status: number) => Type.Unsafe<Record<string, unknown>>({ $ref: 'ErrorBody#', description: ERROR_DESCRIPTIONS[status] });

/** Error responses a route may give, for its schema (serialisation and the OpenAPI document). */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorRef(status)]));
}

/** Errors every authenticated /api route can answer. */
export const API_ERRORS = [400, 401, 403, 429] as const;

export const bearerSecurity = [{ bearerAuth: [] }];
