import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newSecretToken } from '../../secrets.ts';
import { Type } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../users/passwords.ts';
import { SESSION_HOURS, type UsersService } from '../../users/service.ts';
import { FORM_COOKIE, SESSION_COOKIE, actorOf, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { html } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const LoginQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 4000 })), setup: Type.Optional(Type.Literal('done')) });
const LoginForm = formBody({
  email: Type.String({ maxLength: 320 }),
  password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }),
  code: Type.Optional(Type.String({ maxLength: 10 })),
  next: Type.Optional(Type.String({ maxLength: 4000 })),
});
const SetupParams = Type.Object({ token: Type.String({ maxLength: 100 }) });
const SetupForm = formBody({ password: Type.String({ maxLength: PASSWORD_MAX_LENGTH }), confirm: Type.String({ maxLength: PASSWORD_MAX_LENGTH }) });
const SignOutForm = formBody({});

/** Only a dashboard path is a place to return to after signing in (never another site). */
function returnPath(next: string | undefined): string {
  return next && /^\/dashboard(\/|$|\?)/.test(next) ? next : '/dashboard';
}

export async function signInRoutes(app: FastifyInstance, { users, secureCookies }: { users: UsersService; secureCookies: boolean }): Promise<void> {
  const cookie = { path: '/dashboard', httpOnly: true, sameSite: 'lax', secure: secureCookies } as const;

  /** The token the pre-session forms double-submit: one per browser, in a cookie and in the form. */
  function formToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = request.cookies[FORM_COOKIE];
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = newSecretToken();
    reply.setCookie(FORM_COOKIE, token, cookie);
    return token;
  }

  const loginPage = (reply: FastifyReply, token: string, options: { next?: string; email?: string; flash?: { kind: 'ok' | 'error'; text: string } }, status = 200) =>
    sendPage(
      reply,
      {
        title: 'Sign in',
        flash: options.flash,
        body: html`<form class="stack" method="post" action="/dashboard/login">${csrfField(token)}
  <input type="hidden" name="next" value="${returnPath(options.next)}">
  <label>Email <input type="email" name="email" autocomplete="username" required value="${options.email ?? ''}"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <label>Authentication code <span class="muted">(only if you turned on a second factor)</span> <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="\d{6}" maxlength="6"></label>
  <button type="submit">Sign in</button>
</form>`,
      },
      status,
    );

  app.get<{ Querystring: Type.Static<typeof LoginQuery> }>(
    '/dashboard/login',
    { config: { dashboard: 'public' }, schema: { hide: true, querystring: LoginQuery } },
    async (request, reply) =>
      loginPage(reply, formToken(request, reply), {
        next: request.query.next,
        flash: request.query.setup ? { kind: 'ok', text: 'Your password is set. Sign in with it.' } : undefined,
      }),
  );

  app.post<{ Body: Type.Static<typeof LoginForm> }>(
    '/dashboard/login',
    { config: { dashboard: 'public' }, schema: { hide: true, body: LoginForm } },
    async (request, reply) => {
      const { email, password, code, next } = request.body;
      const result = await users.signIn({ email, password, code: code?.trim() || undefined, ip: request.ip });
      if (!result.ok) {
        const limited = result.reason === 'rate_limited';
        if (limited) reply.header('Retry-After', result.retryAfterSeconds);
        const text = limited ? 'Too many sign-in attempts. Wait a few minutes and try again.' : 'The email, the password or the authentication code is wrong.';
        return loginPage(reply, formToken(request, reply), { next, email, flash: { kind: 'error', text } }, limited ? 429 : 401);
      }
      // A new session id on every sign-in; a session the browser held before is ended, not carried over.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) {
        const stale = await users.session(previous);
        if (stale) await users.signOut(previous, { user: stale.user, ip: request.ip });
      }
      reply.setCookie(SESSION_COOKIE, result.token, { ...cookie, maxAge: SESSION_HOURS * 3600 });
      return reply.redirect(returnPath(next), 303);
    },
  );

  const setupPage = (reply: FastifyReply, token: string, formCsrf: string, email: string, flash?: { kind: 'error'; text: string }, status = 200) =>
    sendPage(
      reply,
      {
        title: 'Set your password',
        flash,
        body: html`<p>Signing in as <strong>${email}</strong>. Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.</p>
<form class="stack" method="post" action="/dashboard/setup/${token}">${csrfField(formCsrf)}
  <input type="email" value="${email}" autocomplete="username" hidden>
  <label>New password <input type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required></label>
  <label>Repeat it <input type="password" name="confirm" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required></label>
  <button type="submit">Set password</button>
</form>`,
      },
      status,
    );

  const expiredLink = (reply: FastifyReply) =>
    sendPage(reply, { title: 'Link expired', body: html`<p>This set-up link was used already or has expired. Ask an admin of your account for a new one.</p>` }, 404);

  app.get<{ Params: Type.Static<typeof SetupParams> }>(
    '/dashboard/setup/:token',
    { config: { dashboard: 'public', secretPath: true }, schema: { hide: true, params: SetupParams } },
    async (request, reply) => {
      const user = await users.setupUser(request.params.token);
      if (!user) return expiredLink(reply);
      return setupPage(reply, request.params.token, formToken(request, reply), user.email);
    },
  );

  app.post<{ Params: Type.Static<typeof SetupParams>; Body: Type.Static<typeof SetupForm> }>(
    '/dashboard/setup/:token',
    { config: { dashboard: 'public', secretPath: true }, schema: { hide: true, params: SetupParams, body: SetupForm } },
    async (request, reply) => {
      const { token } = request.params;
      const user = await users.setupUser(token);
      if (!user) return expiredLink(reply);
      const formCsrf = formToken(request, reply);
      if (request.body.password !== request.body.confirm) {
        return setupPage(reply, token, formCsrf, user.email, { kind: 'error', text: 'The two passwords differ.' }, 422);
      }
      try {
        await users.completeSetup(token, request.body.password);
      } catch (error) {
        const { status, text } = refusal(error);
        return status === 404 ? expiredLink(reply) : setupPage(reply, token, formCsrf, user.email, { kind: 'error', text }, status);
      }
      return reply.redirect('/dashboard/login?setup=done', 303);
    },
  );

  app.post<{ Body: Type.Static<typeof SignOutForm> }>(
    '/dashboard/logout',
    { config: { dashboard: 'read' }, schema: { hide: true, body: SignOutForm } },
    async (request, reply) => {
      await users.signOut(sessionOf(request).token, actorOf(request));
      reply.clearCookie(SESSION_COOKIE, cookie);
      return reply.redirect('/dashboard/login', 303);
    },
  );

  app.post<{ Body: Type.Static<typeof SignOutForm> }>(
    '/dashboard/logout/everywhere',
    { config: { dashboard: 'read' }, schema: { hide: true, body: SignOutForm } },
    async (request, reply) => {
      await users.signOutEverywhere(actorOf(request));
      reply.clearCookie(SESSION_COOKIE, cookie);
      return reply.redirect('/dashboard/login', 303);
    },
  );
}
