// Who may do what in the dashboard, and the request hooks that enforce it: the session cookie, the role, the
// CSRF token of every state-changing request, and the security headers of every answer.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../http/errors.ts';
import type { Actor, Session, UsersService } from '../users/service.ts';
import type { Role } from '../users/tables.ts';

/** `read`: every role; `work`: checks, reviews, reports, bundles, KYA; `administer`: keys, users, escrows, audit. */
export type Permission = 'read' | 'work' | 'administer';

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: ['read', 'work', 'administer'],
  analyst: ['read', 'work'],
  viewer: ['read'],
};

export function may(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export const SESSION_COOKIE = 'kyx_session';
/** Double-submitted by the sign-in and set-up forms, which come before any session. */
export const FORM_COOKIE = 'kyx_form';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard page or action: the permission it needs; `public` for sign-in and set-up. */
    dashboard?: Permission | 'public';
  }
  interface FastifyRequest {
    session?: Session & { token: string };
  }
}

// Scripts and styles come only from this origin; nothing may frame the dashboard or post it elsewhere.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function sessionOf(request: FastifyRequest): Session & { token: string } {
  if (!request.session) throw new Error(`route ${request.routeOptions.url} read a session it did not require`);
  return request.session;
}

export function actorOf(request: FastifyRequest): Actor {
  return { user: sessionOf(request).user, ip: request.ip };
}

function sameSecret(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/** The CSRF token a request carries: the form field `_csrf`, or the `X-CSRF-Token` header of a script's request. */
function sentToken(request: FastifyRequest): unknown {
  const header = request.headers['x-csrf-token'];
  if (typeof header === 'string') return header;
  return (request.body as { _csrf?: unknown } | undefined)?._csrf;
}

function sameOrigin(origin: string, request: FastifyRequest): boolean {
  try {
    return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

export function registerDashboardAccess(app: FastifyInstance, users: UsersService): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('Cache-Control', 'no-store');
    // A browser names the page a request came from; one from another site never acts here.
    const origin = request.headers.origin;
    if (request.method !== 'GET' && request.method !== 'HEAD' && origin !== undefined && !sameOrigin(origin, request)) {
      throw apiError('forbidden', 'The request came from another site');
    }
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const needed = request.routeOptions.config.dashboard;
    if (needed === undefined) throw new Error(`dashboard route ${request.routeOptions.url} declares no permission`);
    const stateChanging = request.method !== 'GET' && request.method !== 'HEAD';
    if (needed === 'public') {
      if (stateChanging && !sameSecret(sentToken(request), request.cookies[FORM_COOKIE] ?? '')) {
        throw apiError('forbidden', 'The form expired; load the page again');
      }
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await users.session(token) : undefined;
    if (!session || !token) {
      if (!stateChanging) return reply.redirect(`/dashboard/login?next=${encodeURIComponent(request.url)}`, 303);
      throw apiError('unauthorized', 'Sign in to the dashboard first');
    }
    if (stateChanging && !sameSecret(sentToken(request), session.csrfToken)) throw apiError('forbidden', 'The CSRF token is missing or wrong');
    if (!may(session.user.role, needed)) throw apiError('forbidden', `Your role (${session.user.role}) may not do this`);
    request.session = { ...session, token };
  });
}
