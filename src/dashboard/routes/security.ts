import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { UsersService } from '../../users/service.ts';
import { actorOf, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { type Html, html } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const CodeForm = formBody({ code: Type.String({ maxLength: 10 }) });

type Flash = { kind: 'ok' | 'error'; text: string };

export async function securityRoutes(app: FastifyInstance, { users }: { users: UsersService }): Promise<void> {
  async function securityPage(request: FastifyRequest, reply: FastifyReply, extra: { flash?: Flash; enrolling?: { secret: string; uri: string } } = {}, status = 200) {
    const session = sessionOf(request);
    const user = (await users.find(session.user.accountId, session.user.id))!;
    const codeField = html`<label>Code from the app <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="\\d{6}" maxlength="6" required></label>`;
    let body: Html;
    if (user.twoFactor) {
      body = html`<p data-testid="two-factor-status">Second factor: <strong>on</strong>. Signing in asks for the code your authenticator app shows.</p>
<form class="stack" method="post" action="/dashboard/security/two-factor/disable">${csrfField(session.csrfToken)}${codeField}<button type="submit" class="danger">Turn it off</button></form>`;
    } else if (extra.enrolling) {
      body = html`<p>Add this key to your authenticator app (or open the link on the phone it runs on), then type the code it shows.</p>
<p class="secret"><span>Key:</span> <code id="totp-secret" data-testid="totp-secret">${extra.enrolling.secret}</code> <button type="button" class="secondary" data-copy="totp-secret">Copy</button></p>
<p><a href="${extra.enrolling.uri}">${extra.enrolling.uri}</a></p>
<form class="stack" method="post" action="/dashboard/security/two-factor/confirm">${csrfField(session.csrfToken)}${codeField}<button type="submit">Turn on</button></form>`;
    } else {
      body = html`<p data-testid="two-factor-status">Second factor: <strong>off</strong>.</p>
<form class="stack" method="post" action="/dashboard/security/two-factor/start">${csrfField(session.csrfToken)}<button type="submit">Set up an authenticator app</button></form>`;
    }
    return sendPage(reply, { title: 'Security', session, section: '/dashboard/security', flash: extra.flash, body }, status);
  }

  app.get('/dashboard/security', { config: { dashboard: 'read' }, schema: { hide: true } }, (request, reply) => securityPage(request, reply));

  app.post('/dashboard/security/two-factor/start', { config: { dashboard: 'read' }, schema: { hide: true, body: formBody({}) } }, async (request, reply) => {
    try {
      return await securityPage(request, reply, { enrolling: await users.startTwoFactor(actorOf(request)) });
    } catch (error) {
      const { status, text } = refusal(error);
      return securityPage(request, reply, { flash: { kind: 'error', text } }, status);
    }
  });

  for (const [action, change, done] of [
    ['confirm', users.confirmTwoFactor, 'The second factor is on.'],
    ['disable', users.disableTwoFactor, 'The second factor is off.'],
  ] as const) {
    app.post<{ Body: Type.Static<typeof CodeForm> }>(
      `/dashboard/security/two-factor/${action}`,
      { config: { dashboard: 'read' }, schema: { hide: true, body: CodeForm } },
      async (request, reply) => {
        try {
          await change(actorOf(request), request.body.code.trim());
          return await securityPage(request, reply, { flash: { kind: 'ok', text: done } });
        } catch (error) {
          const { status, text } = refusal(error);
          return securityPage(request, reply, { flash: { kind: 'error', text } }, status);
        }
      },
    );
  }
}
