import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { OAuthService } from '../../oauth/service.ts';
import type { UsersService } from '../../users/service.ts';
import { actorOf, sessionOf } from '../access.ts';
import { ScopesField, formBody, refusal, scopeCheckboxes, tickedScopes } from '../forms.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const ConsentQuery = Type.Object({ request: Type.String({ maxLength: 4000 }) }, { additionalProperties: false });
const ConsentForm = formBody({
  request: Type.String({ maxLength: 4000 }),
  consent: Type.String({ maxLength: 4000 }),
  decision: Type.Union([Type.Literal('approve'), Type.Literal('deny')]),
});
const ClientForm = formBody({
  name: Type.String({ maxLength: 200 }),
  redirectUris: Type.String({ maxLength: 20_000 }),
  scopes: ScopesField,
  type: Type.Union([Type.Literal('confidential'), Type.Literal('public')]),
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
});
const GrantParams = Type.Object({ grantId: Type.String({ maxLength: 100 }) });

type Flash = { kind: 'ok' | 'error'; text: string };

export async function oauthRoutes(app: FastifyInstance, { oauth, users }: { oauth: OAuthService; users: UsersService }): Promise<void> {
  app.get<{ Querystring: Type.Static<typeof ConsentQuery> }>(
    '/dashboard/oauth/consent',
    { config: { dashboard: 'administer' }, schema: { hide: true, querystring: ConsentQuery } },
    async (request, reply) => {
      const session = sessionOf(request);
      const opened = await oauth.openRequest(request.query.request);
      if (!opened || opened.client.accountId !== session.user.accountId) {
        return sendPage(reply, { title: 'Authorization request', session, body: html`<p>This authorization request expired or is not for your account. Start again from the application.</p>` }, 400);
      }
      const { client, request: asked } = opened;
      const consent = await oauth.consentToken(request.query.request, session.token);
      return sendPage(reply, {
        title: `Allow ${client.name}?`,
        session,
        body: html`<p><strong>${client.name}</strong> (<code>${client.clientId}</code>) asks to act on the ${client.environment} data of your account <code>${session.user.accountId}</code> with these permissions:</p>
<ul data-testid="consent-scopes">${asked.scopes.map((scope) => html`<li><code>${scope}</code></li>`)}</ul>
<p>It will return to <code>${asked.redirectUri}</code>. You can revoke its access at any time on the OAuth apps page.</p>
<form class="stack" method="post" action="/dashboard/oauth/consent">${csrfField(session.csrfToken)}
<input type="hidden" name="request" value="${request.query.request}"><input type="hidden" name="consent" value="${consent}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>`,
      });
    },
  );

  app.post<{ Body: Type.Static<typeof ConsentForm> }>(
    '/dashboard/oauth/consent',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: ConsentForm } },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        const answered = await oauth.answer({
          sealed: request.body.request,
          consent: request.body.consent,
          sessionToken: session.token,
          user: session.user,
          approve: request.body.decision === 'approve',
        });
        await users.audit(actorOf(request), answered.grant ? 'oauth.granted' : 'oauth.denied', answered.grant?.grantId ?? answered.client.clientId, {
          clientId: answered.client.clientId,
          scopes: answered.grant?.scopes,
        });
        return reply.redirect(answered.redirect, 303);
      } catch (error) {
        const { status, text } = refusal(error);
        return sendPage(reply, { title: 'Authorization request', session, flash: { kind: 'error', text }, body: html`<p>Start again from the application.</p>` }, status);
      }
    },
  );

  async function appsPage(request: FastifyRequest, reply: FastifyReply, extra: { flash?: Flash; secret?: { clientId: string; secret?: string } } = {}, status = 200) {
    const session = sessionOf(request);
    const [clients, grants] = await Promise.all([oauth.clients(session.user.accountId), oauth.grants(session.user.accountId)]);
    const names = new Map(clients.map((client) => [client.clientId, client.name]));
    const registered: Html | string = extra.secret
      ? html`<div class="secret" role="status"><span>Client <code data-testid="client-id">${extra.secret.clientId}</code> registered.${extra.secret.secret ? ' Its secret, shown only now:' : ''}</span>
${extra.secret.secret ? html`<code id="client-secret" data-testid="client-secret">${extra.secret.secret}</code><button type="button" class="secondary" data-copy="client-secret">Copy</button>` : ''}</div>`
      : '';
    return sendPage(
      reply,
      {
        title: 'OAuth apps',
        session,
        section: '/dashboard/oauth',
        flash: extra.flash,
        body: html`${registered}
<h2>Access granted</h2>
${grants.length
  ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Grant</th><th scope="col">Application</th><th scope="col">Scopes</th><th scope="col">Granted by</th><th scope="col">Granted</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${grants.map(
    (grant) => html`<tr><td><code>${grant.grantId}</code></td><td>${names.get(grant.clientId) ?? grant.clientId}</td><td class="mono">${grant.scopes.join(' ')}</td><td><code>${grant.userId}</code></td><td>${time(grant.createdAt)}</td>
<td>${grant.revokedAt ? html`${badge('revoked')} ${time(grant.revokedAt)}` : badge('active')}</td>
<td>${grant.revokedAt ? '' : html`<form class="inline" method="post" action="/dashboard/oauth/grants/${grant.grantId}/revoke" data-confirm="Revoke this application's access? Its tokens stop working now.">${csrfField(session.csrfToken)}<button type="submit" class="danger">Revoke</button></form>`}</td></tr>`,
  )}</tbody></table></div>`
  : html`<p class="muted">No application has access.</p>`}
<h2>Registered applications</h2>
${clients.length
  ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Client</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Redirect URIs</th><th scope="col">Scopes</th><th scope="col">Environment</th></tr></thead>
<tbody>${clients.map((client) => html`<tr><td><code>${client.clientId}</code></td><td>${client.name}</td><td>${client.type}</td><td class="mono">${client.redirectUris.map((uri) => html`${uri}<br>`)}</td><td class="mono">${client.scopes.join(' ')}</td><td>${client.environment}</td></tr>`)}</tbody></table></div>`
  : html`<p class="muted">None registered.</p>`}
<h2>Register an application</h2>
<form class="stack" method="post" action="/dashboard/oauth/clients">${csrfField(session.csrfToken)}
<label>Name <input name="name" required maxlength="200"></label>
<label>Redirect URIs, one per line (compared exactly; https, or http on localhost) <textarea name="redirectUris" required></textarea></label>
<label>Type <select name="type"><option value="confidential">confidential (a server, with a secret)</option><option value="public">public (a browser or native app, PKCE only)</option></select></label>
<label>Environment <select name="environment"><option value="live">live</option><option value="test">test</option></select></label>
${scopeCheckboxes('Scopes it may ask for')}
<button type="submit">Register</button></form>`,
      },
      status,
    );
  }

  app.get('/dashboard/oauth', { config: { dashboard: 'administer' }, schema: { hide: true } }, (request, reply) => appsPage(request, reply));

  app.post<{ Body: Type.Static<typeof ClientForm> }>(
    '/dashboard/oauth/clients',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: ClientForm } },
    async (request, reply) => {
      const { name, redirectUris, scopes, type, environment } = request.body;
      const ticked = tickedScopes(scopes);
      if ('unknown' in ticked) return appsPage(request, reply, { flash: { kind: 'error', text: `Unknown scope: ${ticked.unknown.join(', ')}` } }, 400);
      try {
        const { client, clientSecret } = await oauth.registerClient(sessionOf(request).user.accountId, {
          name,
          redirectUris: redirectUris.split(/\r?\n/).map((line) => line.trim()).filter(Boolean),
          scopes: ticked.scopes,
          public: type === 'public',
          environment,
        });
        await users.audit(actorOf(request), 'oauth.client_registered', client.clientId, { redirectUris: client.redirectUris, scopes: client.scopes });
        return appsPage(request, reply, { secret: { clientId: client.clientId, secret: clientSecret } });
      } catch (error) {
        const { status, text } = refusal(error);
        return appsPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  app.post<{ Params: Type.Static<typeof GrantParams> }>(
    '/dashboard/oauth/grants/:grantId/revoke',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: GrantParams, body: formBody({}) } },
    async (request, reply) => {
      try {
        const grant = await oauth.revokeGrant(sessionOf(request).user.accountId, request.params.grantId);
        await users.audit(actorOf(request), 'oauth.grant_revoked', grant.grantId, { clientId: grant.clientId });
        return appsPage(request, reply, { flash: { kind: 'ok', text: `Revoked ${grant.grantId}; its tokens stop working now.` } });
      } catch (error) {
        const { status, text } = refusal(error);
        return appsPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );
}
