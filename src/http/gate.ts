import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Credentials, type PresentedCredential, type Principal, presentCredential } from '../accounts/credentials.ts';
import type { Scope } from '../accounts/scopes.ts';
import { UNLIMITED } from '../accounts/plans.ts';
import { type ConsumeResult, type UsageCounter, type UsageCounts, nextDayStart, nextMonthStart } from '../accounts/usage.ts';
import type { FloodLimiter, FloodVerdict } from './flood.ts';
import { apiError, invalidRequest } from './errors.ts';
import { admitIdempotent, claimsIdempotencyKey } from './idempotency.ts';
import { routedPath } from './route-path.ts';
import type { IdempotencyService } from '../idempotency/service.ts';

/** What a route asks of the caller; routes without `access` are public. */
export interface Access {
  /** The permission the credential must carry (any one of a list); null when any valid credential will do. */
  scope: Scope | readonly Scope[] | null;
  /** Counts toward the plan's day and month (every /api/v1 route). */
  metered: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
    usage?: UsageCounts;
  }
}

/** The authenticated caller of a route that declared `access`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} read a principal it did not require`);
  return request.principal;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +([^\s]+) *$/i.exec(header);
  return match ? match[1] : null;
}

// Header names are written in lower case, as Fastify sends them anyway: it lowers every name it is given, and a
// name it had to lower is a new string each time, which then has to be looked up among V8's interned strings to
// serve as a property key (about 60 ns a header, on every request's six or more).
function setPlanHeaders(reply: FastifyReply, principal: Principal, usage: UsageCounts, now: Date): void {
  reply.header('x-ratelimit-limit', principal.limits.advisoryPerMinute);
  const monthly = principal.limits.requestsPerMonth;
  if (monthly === UNLIMITED) return;
  reply.header('x-quota-limit', monthly);
  reply.header('x-quota-remaining', Math.max(0, monthly - usage.thisMonth));
  reply.header('x-quota-reset', Math.floor(nextMonthStart(now).getTime() / 1000));
}

// No identifier or query value of ours contains control characters; a NUL would reach SQL (Postgres refuses it).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function refuseControlCharacters(where: 'params' | 'querystring', values: unknown): void {
  if (!values || typeof values !== 'object') return;
  // Runs on every request, which almost never has a bad value: nothing is allocated until one is found.
  let bad: string[] | undefined;
  for (const name in values) {
    const value = (values as Record<string, unknown>)[name];
    if (typeof value === 'string' && CONTROL_CHARACTERS.test(value)) (bad ??= []).push(name);
  }
  if (bad) throw invalidRequest(bad.map((name) => ({ path: `${where}/${name}`, message: 'must not contain control characters' })));
}

function permitted(access: Access, principal: Principal): boolean {
  const { scope } = access;
  if (scope === null) return true;
  if (typeof scope === 'string') return principal.scopes.includes(scope);
  return scope.length === 0 || scope.some((one) => principal.scopes.includes(one));
}

function applyFlood(reply: FastifyReply, flood: FloodVerdict, now: Date): void {
  reply.header('ratelimit-limit', flood.limit);
  reply.header('ratelimit-remaining', flood.remaining);
  reply.header('ratelimit-reset', flood.resetSeconds);
  if (!flood.allowed) {
    reply.header('retry-after', flood.resetSeconds);
    throw apiError('rateLimited', 'Too many requests from this address; retry after the window resets', {
      resetsAt: new Date(now.getTime() + flood.resetSeconds * 1000).toISOString(),
    });
  }
}

function applyUsage(request: FastifyRequest, reply: FastifyReply, principal: Principal, result: ConsumeResult, now: Date): void {
  setPlanHeaders(reply, principal, result, now);
  if (!result.allowed) {
    if (result.refusedBy === 'day') {
      throw apiError('dailyCapExceeded', 'Daily API call cap exceeded', { resetsAt: nextDayStart(now).toISOString() });
    }
    throw apiError('monthlyQuotaExceeded', 'Monthly quota exceeded', { resetsAt: nextMonthStart(now).toISOString() });
  }
  request.usage = { today: result.today, thisMonth: result.thisMonth };
}

const ceilingsOf = (principal: Principal) => ({ perDay: principal.limits.requestsPerDay, perMonth: principal.limits.requestsPerMonth });

/**
 * The one gate in front of every route, in the contract's order: flood limiter (per IP, /api only) →
 * credential (401) → permission (403) → daily cap → monthly quota. A refused request consumes nothing, and
 * neither does a POST repeating an Idempotency-Key another request claimed.
 */
export function registerGate(
  app: FastifyInstance,
  deps: { credentials: Credentials; usage: UsageCounter; flood: FloodLimiter; idempotency: IdempotencyService },
): void {
  const { credentials, usage, flood } = deps;
  // Declared on every request up front, so that setting them does not change the shape of the request object.
  app.decorateRequest('principal', undefined);
  app.decorateRequest('usage', undefined);
  // With Redis, flood window and day/month counters are two scripts, each a round trip. A metered request whose
  // key this instance verified lately (no storage to ask, so nothing else to wait for between the two) sends one
  // script that does both in the same order: past the flood limit it consumes nothing, as before.
  const window = flood.window?.bind(flood);
  const consumeAfterFlood = usage.consumeAfterFlood?.bind(usage);
  const admitAtOnce =
    window && consumeAfterFlood
      ? async (request: FastifyRequest, reply: FastifyReply, principal: Principal, now: Date) => {
          const counted = window(request.ip, now.getTime());
          const result = await consumeAfterFlood(counted, principal.account.id, ceilingsOf(principal), now);
          // The script's own refusal decides: no usage means the window refused the request, whatever the count says.
          const floodVerdict = counted.verdict(result.flood);
          if (!result.usage) return applyFlood(reply, { ...floodVerdict, allowed: false, remaining: 0 }, now);
          applyFlood(reply, floodVerdict, now);
          request.principal = principal;
          applyUsage(request, reply, principal, result.usage, now);
        }
      : undefined;

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const now = new Date();
    const api = routedPath(request).startsWith('/api/');
    const access = request.routeOptions.config.access;
    // The credential as sent, its API-key hash computed once for both the cache and storage.
    let presented: PresentedCredential | undefined;
    if (admitAtOnce && api && access?.metered && !claimsIdempotencyKey(request)) {
      const token = bearerToken(request);
      if (token) presented = presentCredential(token);
      const known = presented ? credentials.cached(presented) : undefined;
      if (known && permitted(access, known)) return admitAtOnce(request, reply, known, now);
    }
    if (api) applyFlood(reply, await flood.hit(request.ip, now.getTime()), now);

    if (!access) return;
    const token = presented ?? bearerToken(request);
    if (!token) throw apiError('unauthorized', 'Send an API key or access token as Authorization: Bearer <credential>');
    const principal = await credentials.authenticate(token);
    if (!principal) throw apiError('unauthorized', 'The credential is not valid');
    if (!permitted(access, principal)) {
      throw apiError('forbidden', `The credential lacks the permission ${typeof access.scope === 'string' ? access.scope : access.scope!.join(' or ')}`);
    }
    request.principal = principal;
    if (!api) return;

    if (!access.metered || (claimsIdempotencyKey(request) && (await admitIdempotent(deps.idempotency, request, principal.account.id, now)) === 'skip')) {
      setPlanHeaders(reply, principal, await usage.peek(principal.account.id, now), now);
      return;
    }
    applyUsage(request, reply, principal, await usage.consume(principal.account.id, ceilingsOf(principal), now), now);
  });

  // Input checks come after the gate, like schema validation: an unauthenticated caller gets 401, not 400.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      refuseControlCharacters('params', request.params);
      refuseControlCharacters('querystring', request.query);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
