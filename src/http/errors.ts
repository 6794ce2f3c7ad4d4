import createError from '@fastify/error';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The contract's error codes. Each is a @fastify/error class whose message is given where it is thrown;
 * fields beyond {code, message, requestId} ride along in `details`.
 */
export const Errors = {
  invalidRequest: createError('invalid_request', '%s', 400),
  unsupportedGrantType: createError('unsupported_grant_type', '%s', 400),
  unsupportedReportTypes: createError('UNSUPPORTED_REPORT_TYPES', '%s', 400),
  unauthorized: createError('unauthorized', '%s', 401),
  forbidden: createError('forbidden', '%s', 403),
  notFound: createError('not_found', '%s', 404),
  escrowApiUnavailable: createError('escrow_api_unavailable', '%s', 410),
  payloadTooLarge: createError('payload_too_large', '%s', 413),
  unsupportedMediaType: createError('unsupported_media_type', '%s', 415),
  unsignedCertificate: createError('unsigned_certificate', '%s', 422),
  dailyCapExceeded: createError('DAILY_CAP_EXCEEDED', '%s', 429),
  monthlyQuotaExceeded: createError('MONTHLY_QUOTA_EXCEEDED', '%s', 429),
  rateLimited: createError('rate_limited', '%s', 429),
  notImplemented: createError('not_implemented', '%s', 501),
  listsUnavailable: createError('lists_unavailable', '%s', 503),
  notScreened: createError('not_screened', '%s', 503),
  notReady: createError('not_ready', '%s', 503),
} as const;

export type ErrorKind = keyof typeof Errors;

export interface DetailedError extends FastifyError {
  details?: Record<string, unknown>;
}

/** Builds a contract error, e.g. `apiError('notFound', 'No such check')`, with optional extra body fields. */
export function apiError(kind: ErrorKind, message: string, details?: Record<string, unknown>): DetailedError {
  const error: DetailedError = new Errors[kind](message);
  if (details) error.details = details;
  return error;
}

export interface FieldError {
  path: string;
  message: string;
}

export function invalidRequest(errors: FieldError[], message = 'The request is invalid'): DetailedError {
  return apiError('invalidRequest', message, { errors });
}

const CONTRACT_CODES: Set<string> = new Set(Object.values(Errors).map((E) => new E('').code));

interface AjvIssue {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldErrors(error: FastifyError): FieldError[] {
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

/** Maps anything thrown on the way to an answer onto the contract's body; nothing but a real fault is a 5xx. */
export function toContractError(error: FastifyError & { details?: Record<string, unknown> }): {
  status: number;
  body: Record<string, unknown>;
} {
  if (error.validation) {
    return { status: 400, body: { code: 'invalid_request', message: 'The request is invalid', errors: fieldErrors(error) } };
  }
  if (CONTRACT_CODES.has(error.code)) {
    return { status: error.statusCode ?? 500, body: { ...error.details, code: error.code, message: error.message } };
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
    default:
      if (status >= 400 && status < 500) return { status, body: { code: 'invalid_request', message: error.message, errors: [] } };
      return { status: 500, body: { code: 'internal_error', message: 'Internal error' } };
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toContractError(error);
    if (status >= 500 && status !== 501 && status !== 503) request.log.error({ err: error }, 'request failed');
    if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="kyx"');
    return reply.status(status).send({ ...body, requestId: request.id });
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}`, requestId: request.id });
  });
}
