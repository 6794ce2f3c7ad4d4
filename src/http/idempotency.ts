// Idempotency-Key on every POST under /api/v1: the gate asks `admitIdempotent` whether the request claims its key
// (it then runs and counts as usual) or repeats one (it neither runs nor counts); the hooks here answer repeats
// from the stored answer and store the owner's answer before it leaves.
import type { FastifyInstance, FastifyRequest, RouteOptions, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import { type IdempotencyService, requestHash } from '../idempotency/service.ts';
import { apiError, invalidRequest } from './errors.ts';
import { originTarget, routedPath } from './route-path.ts';
import { errorResponses } from './schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; owner: boolean; started: boolean };
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** 1–255 printable ASCII characters, not starting or ending with a space. */
const VALID_KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

const appliesTo = (request: FastifyRequest) => request.method === 'POST' && routedPath(request).startsWith('/api/v1/');

/** Whether the request names an Idempotency-Key that `admitIdempotent` has to claim (or refuse) before it counts. */
export function claimsIdempotencyKey(request: FastifyRequest): boolean {
  return request.headers[IDEMPOTENCY_HEADER] !== undefined && appliesTo(request);
}

/** Called by the gate once the caller may make the request, before it counts: 'skip' means it must not count. */
export async function admitIdempotent(service: IdempotencyService, request: FastifyRequest, accountId: string, now: Date): Promise<'consume' | 'skip'> {
  if (!claimsIdempotencyKey(request)) return 'consume';
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (typeof header !== 'string' || !VALID_KEY.test(header)) {
    throw invalidRequest([{ path: `headers/${IDEMPOTENCY_HEADER}`, message: 'must be 1 to 255 printable ASCII characters' }]);
  }
  const { owner } = await service.claim(accountId, header, now);
  request.idempotency = { key: header, owner, started: false };
  return owner ? 'consume' : 'skip';
}

/** The preHandler of a POST under /api/v1: the owner notes its body; a repeat is answered from the stored answer. */
function replayOrDescribe(service: IdempotencyService): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const claim = request.idempotency;
    if (!claim || !request.principal) return;
    const accountId = request.principal.account.id;
    const hash = requestHash(request.method, originTarget(request.url), request.body);
    if (claim.owner) {
      await service.describe(accountId, claim.key, hash);
      claim.started = true;
      return;
    }
    const outcome = await service.outcomeFor(accountId, claim.key, hash);
    if (outcome.kind === 'reused') throw apiError('idempotencyKeyReused', 'This Idempotency-Key was used with another request; use a new key');
    if (outcome.kind === 'in_flight') throw apiError('conflict', 'A request with this Idempotency-Key is still in progress; retry it later');
    reply.header('Idempotent-Replayed', 'true').status(outcome.answer.status);
    if (outcome.answer.contentType) reply.type(outcome.answer.contentType);
    return reply.send(outcome.answer.body);
  };
}

/** The owner's answer is stored before it leaves; an owner that never started (refused, invalid) frees the key. */
function storeAnswer(service: IdempotencyService): onSendAsyncHookHandler {
  return async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim?.owner || !request.principal) return payload;
    const accountId = request.principal.account.id;
    if (claim.started && typeof payload === 'string') {
      const contentType = reply.getHeader('content-type');
      await service.complete(accountId, claim.key, { status: reply.statusCode, body: payload, contentType: typeof contentType === 'string' ? contentType : null });
    } else {
      await service.release(accountId, claim.key);
    }
    claim.owner = false;
    return payload;
  };
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Every POST under /api/v1 documents the header and the answers it adds (409 in progress, 422 reused) and gets the
 * two hooks; other routes pay nothing for it.
 */
export function registerIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  const preHandler = replayOrDescribe(service);
  const onSend = storeAnswer(service);
  app.decorateRequest('idempotency', undefined);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !route.url.startsWith('/api/v1/')) return;
    const schema = (route.schema ??= {}) as { headers?: unknown; response?: Record<number, unknown> };
    schema.headers = Type.Object({
      [IDEMPOTENCY_HEADER]: Type.Optional(
        Type.String({
          description:
            'Makes a retry safe: the same key with the same body within 24 h replays the first answer (Idempotent-Replayed: true) ' +
            'without running or counting again; with another body, 422 idempotency_key_reused. 1–255 printable ASCII characters.',
        }),
      ),
    });
    schema.response = { ...errorResponses(409, 422), ...schema.response };
    route.preHandler = [...asList(route.preHandler), preHandler];
    route.onSend = [...asList(route.onSend), onSend];
  });
}
