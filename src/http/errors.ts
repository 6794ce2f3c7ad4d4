import createError from '@fastify/error';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorCode, type FieldIssue } from '../errors.ts';

/** The contract's error codes with their statuses (the body's `code` is exactly the key's value here). */
const CONTRACT = {
  invalidRequest: ['invalid_request', 400],
  unsupportedGrantType: ['unsupported_grant_type', 400],
  invalidGrant: ['invalid_grant', 400],
  invalidScope: ['invalid_scope', 400],
  invalidClient: ['invalid_client', 401],
  unsupportedReportTypes: ['UNSUPPORTED_REPORT_TYPES', 400],
  unauthorized: ['unauthorized', 401],
  forbidden: ['forbidden', 403],
  notFound: ['not_found', 404],
  conflict: ['conflict', 409],
  bundleFailed: ['bundle_failed', 409],
  escrowApiUnavailable: ['escrow_api_unavailable', 410],
  payloadTooLarge: ['payload_too_large', 413],
  unsupportedMediaType: ['unsupported_media_type', 415],
  unsignedCertificate: ['unsigned_certificate', 422],
  idempotencyKeyReused: ['idempotency_key_reused', 422],
  dailyCapExceeded: ['DAILY_CAP_EXCEEDED', 429],
  monthlyQuotaExceeded: ['MONTHLY_QUOTA_EXCEEDED', 429],
  rateLimited: ['rate_limited', 429],
  notImplemented: ['not_implemented', 501],
  listsUnavailable: ['lists_unavailable', 503],
  notScreened: ['not_screened', 503],
  notReady: ['not_ready', 503],
} as const;

export type ErrorKind = keyof typeof CONTRACT;

/**
 * One @fastify/error class per contract code (it upper-cases `code`, so the contract's spelling travels in
 * `contractCode`); fields beyond {code, message, requestId} ride along in `details`.
 */
export const Errors = Object.fromEntries(
  Object.entries(CONTRACT).map(([kind, [code, status]]) => [kind, createError(`KYX_${code}`, '%s', status)]),
) as Record<ErrorKind, ReturnType<typeof createError>>;

export interface DetailedError extends FastifyError {
  contractCode?: string;
  details?: Record<string, unknown>;
}

/** Builds a contract error, e.g. `apiError('notFound', 'No such check')`, with optional extra body fields. */
export function apiError(kind: ErrorKind, message: string, details?: Record<string, unknown>): DetailedError {
  const error: DetailedError = new Errors[kind](message);
  error.contractCode = CONTRACT[kind][0];
  if (details) error.details = details;
  return error;
}

/** An OAuth 2.0 token endpoint error: the contract's body plus RFC 6749's `error` and `error_description`. */
export function oauthError(kind: 'invalidGrant' | 'invalidScope' | 'invalidClient' | 'unsupportedGrantType', message: string): DetailedError {
  return apiError(kind, message, { error: CONTRACT[kind][0], error_description: message });
}

/** `errors` name their field as the contract does: `body/…`, `querystring/…`, `params/…`. */
export function invalidRequest(errors: FieldIssue[], message = 'The request is invalid'): DetailedError {
  return apiError('invalidRequest', message, { errors });
}

/** Each domain failure as the contract answers it. */
const DOMAIN_ERRORS: Record<DomainErrorCode, ErrorKind> = {
  invalid_input: 'invalidRequest',
  too_large: 'payloadTooLarge',
  lists_unavailable: 'listsUnavailable',
  engine_unavailable: 'notReady',
  not_screened: 'notScreened',
  not_found: 'notFound',
  conflict: 'conflict',
};

function fromDomainError(error: DomainError): DetailedError {
  if (error.code === 'invalid_input') {
    return invalidRequest(
      error.issues.map(({ path, message }) => ({ path: path === '' || path === '/' ? error.location : `${error.location}${path}`, message })),
      error.message,
    );
  }
  return apiError(DOMAIN_ERRORS[error.code], error.message, error.details);
}

interface AjvIssue {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldErrors(error: FastifyError): FieldIssue[] {
  const where = error.validationContext ?? 'body';
  return (error.validation as AjvIssue[]).map((issue) => {
    const missing = issue.params?.missingProperty;
    const extra = issue.params?.additionalProperty;
    const tail = typeof missing === 'string' ? `/${missing}` : typeof extra === 'string' ? `/${extra}` : '';
    const path = `${where}${issue.instancePath}${tail}`;
    const message = typeof extra === 'string' ? 'is not an allowed property' : (issue.message ?? 'is invalid');
    return { path, message };
  });
}

// Connection failures of a backing service, in Node (net), pg (SQLSTATE classes 08 and 57P), ioredis and SQLite.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const POSTGRES_GONE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;
const REDIS_GONE = /^(Connection is closed|Command timed out|Stream isn't writeable)/;

/**
 * Which backing service a thrown error says is unavailable (database down or restarting, Redis unreachable,
 * SQLite disk full), or null when it is a fault of kyx. Such a request answers 503 `not_ready` and may be retried.
 */
export function unavailableService(error: unknown): 'storage' | 'redis' | 'storage or Redis' | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^SQLITE_(FULL|IOERR|BUSY|LOCKED|CANTOPEN|READONLY|NOMEM)/.test(code)) return 'storage';
    // Postgres classes 08 (connection), 57P0x (shut down, restarting) and 53 (insufficient resources: too many
    // connections, disk full, out of memory) pass when the server does: 503, not a fault of kyx.
    if (/^(08|57P0|53)/.test(code) && 'severity' in error) return 'storage';
    if (UNREACHABLE.has(code)) return 'storage or Redis';
  }
  if (error.name === 'MaxRetriesPerRequestError' || REDIS_GONE.test(error.message)) return 'redis';
  if (POSTGRES_GONE.test(error.message)) return 'storage';
  return null;
}

/** Maps anything thrown on the way to an answer onto the contract's body; nothing but a real fault is a 5xx. */
export function toContractError(thrown: DetailedError | DomainError): {
  status: number;
  body: Record<string, unknown>;
} {
  const error = thrown instanceof DomainError ? fromDomainError(thrown) : thrown;
  if (error.validation) {
    return { status: 400, body: { code: 'invalid_request', message: 'The request is invalid', errors: fieldErrors(error) } };
  }
  if (error.contractCode) {
    return { status: error.statusCode ?? 500, body: { ...error.details, code: error.contractCode, message: error.message } };
  }
  const status = error.statusCode ?? 500;
  switch (status) {
    case 400:
      return { status, body: { code: 'invalid_request', message: error.message, errors: [{ path: 'body', message: error.message }] } };
    case 404:
      return { status, body: { code: 'not_found', message: 'Not found' } };
    case 413:
      return { status, body: { code: 'payload_too_large', message: 'The request body is larger than the limit' } };
    case 415:
      return { status, body: { code: 'unsupported_media_type', message: error.message } };
    default: {
      if (status >= 400 && status < 500) return { status, body: { code: 'invalid_request', message: error.message, errors: [] } };
      const unavailable = unavailableService(error);
      if (unavailable) return { status: 503, body: { code: 'not_ready', message: `The service's ${unavailable} is unavailable; retry shortly` } };
      return { status: 500, body: { code: 'internal_error', message: 'Internal error' } };
    }
  }
}

/**
 * Errors the router raises before any hook runs (a malformed URL, an over-long path parameter): answered with
 * the contract's body too, without echoing the URL.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  reply
    .status(status)
    .header('X-Request-Id', request.id)
    .send({ code: 'invalid_request', message: 'The URL is malformed or too long', errors: [{ path: 'url', message: error.code }], requestId: request.id });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toContractError(error);
    if (error instanceof DomainError && error.code === 'engine_unavailable') request.log.error({ err: error.cause }, error.message);
    else if (status >= 500 && status !== 501 && status !== 503) request.log.error({ err: error }, 'request failed');
    else if (status === 503 && body.code === 'not_ready') {
      request.log.warn({ err: { code: (error as { code?: unknown }).code, message: error.message } }, 'backing service unavailable');
      reply.header('Retry-After', 1);
    }
    if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="kyx"');
    return reply.status(status).send({ ...body, requestId: request.id });
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}`, requestId: request.id });
  });
}
