import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AccountsService, ApiKeyRecord } from '../../accounts/service.ts';
import type { UsersService } from '../../users/service.ts';
import { actorOf, may, sessionOf } from '../access.ts';
import { ScopesField, formBody, refusal, scopeCheckboxes, tickedScopes } from '../forms.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const CreateKeyForm = formBody({
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  scopes: ScopesField,
});
const KeyParams = Type.Object({ keyId: Type.String({ maxLength: 100 }) });

export async function keyRoutes(app: FastifyInstance, { accounts, users }: { accounts: AccountsService; users: UsersService }): Promise<void> {
  async function keysPage(request: FastifyRequest, reply: FastifyReply, extra: { created?: { record: ApiKeyRecord; key: string }; flash?: { kind: 'ok' | 'error'; text: string } } = {}, status = 200) {
    const session = sessionOf(request);
    const admin = may(session.user.role, 'administer');
    const keys = await accounts.listKeys(session.user.accountId);
    const created: Html | string = extra.created
      ? html`<div class="secret" role="status"><span>New ${extra.created.record.environment} key <code>${extra.created.record.id}</code>, shown only now:</span>
<code id="new-key" data-testid="new-key">${extra.created.key}</code><button type="button" class="secondary" data-copy="new-key">Copy</button></div>`
      : '';
    const row = (key: ApiKeyRecord) => html`<tr>
<td><code>${key.displayPrefix}…</code><br><span class="muted mono">${key.id}</span></td>
<td>${key.environment}</td>
<td class="mono">${key.scopes.join(' ')}</td>
<td>${time(key.createdAt)}</td>
<td>${time(key.lastUsedAt)}</td>
<td>${key.revokedAt ? html`${badge('revoked')} ${time(key.revokedAt)}` : badge('active')}</td>
<td>${admin && !key.revokedAt
      ? html`<form class="inline" method="post" action="/dashboard/keys/${key.id}/revoke" data-confirm="Revoke ${key.displayPrefix}…? Requests with it will be refused.">${csrfField(session.csrfToken)}<button type="submit" class="danger">Revoke</button></form>`
      : ''}</td></tr>`;
    return sendPage(
      reply,
      {
        title: 'API keys',
        session,
        section: '/dashboard/keys',
        flash: extra.flash,
        body: html`${created}
<div class="table-wrap"><table><thead><tr><th scope="col">Key</th><th scope="col">Environment</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
<tbody>${keys.map(row)}</tbody></table></div>
${admin
  ? html`<h2>Create a key</h2>
<form class="stack" method="post" action="/dashboard/keys">${csrfField(session.csrfToken)}
<label>Environment <select name="environment"><option value="test">test (sandbox)</option><option value="live">live (billed)</option></select></label>
${scopeCheckboxes('Scopes')}
<button type="submit">Create key</button></form>`
  : ''}`,
      },
      status,
    );
  }

  app.get('/dashboard/keys', { config: { dashboard: 'read' }, schema: { hide: true } }, (request, reply) => keysPage(request, reply));

  app.post<{ Body: Type.Static<typeof CreateKeyForm> }>(
    '/dashboard/keys',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: CreateKeyForm } },
    async (request, reply) => {
      const { environment, scopes } = request.body;
      const ticked = tickedScopes(scopes);
      if ('unknown' in ticked) return keysPage(request, reply, { flash: { kind: 'error', text: `Unknown scope: ${ticked.unknown.join(', ')}` } }, 400);
      const created = await accounts.createKey(sessionOf(request).user.accountId, { environment, scopes: ticked.scopes });
      await users.audit(actorOf(request), 'key.created', created.record.id, { environment, scopes: created.record.scopes });
      return keysPage(request, reply, { created, flash: { kind: 'ok', text: 'Key created. Copy it now: it is stored only as a hash.' } });
    },
  );

  app.post<{ Params: Type.Static<typeof KeyParams>; Body: Type.Static<ReturnType<typeof formBody>> }>(
    '/dashboard/keys/:keyId/revoke',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: KeyParams, body: formBody({}) } },
    async (request, reply) => {
      try {
        const key = await accounts.revokeKey(sessionOf(request).user.accountId, request.params.keyId);
        await users.audit(actorOf(request), 'key.revoked', key.id);
        return keysPage(request, reply, { flash: { kind: 'ok', text: `Revoked ${key.displayPrefix}… (${key.id}).` } });
      } catch (error) {
        const { status, text } = refusal(error);
        return keysPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );
}
