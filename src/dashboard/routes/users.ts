import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuditEntry, UsersService } from '../../users/service.ts';
import { ROLES } from '../../users/tables.ts';
import { actorOf, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const Role = Type.Union(ROLES.map((role) => Type.Literal(role)));
const InviteForm = formBody({ email: Type.String({ maxLength: 320 }), role: Role });
const UserParams = Type.Object({ userId: Type.String({ maxLength: 100 }) });
const RoleForm = formBody({ role: Role });
const AuditQuery = Type.Object({ before: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false });
const AUDIT_PAGE = 100;

type Flash = { kind: 'ok' | 'error'; text: string };

const auditCursor = (entry: AuditEntry) => Buffer.from(JSON.stringify([entry.at, entry.id])).toString('base64url');
function readAuditCursor(cursor: string | undefined): { at: string; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string') return { at, id };
  } catch {
    // an unreadable cursor starts from the newest entry
  }
  return undefined;
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break; a leading formula character is defused. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function userRoutes(app: FastifyInstance, { users }: { users: UsersService }): Promise<void> {
  async function usersPage(request: FastifyRequest, reply: FastifyReply, extra: { flash?: Flash; setupUrl?: string } = {}, status = 200) {
    const session = sessionOf(request);
    const people = await users.list(session.user.accountId);
    const roleOptions = (current: string) => ROLES.map((role) => html`<option value="${role}"${role === current ? html` selected` : ''}>${role}</option>`);
    const invited: Html | string = extra.setupUrl
      ? html`<div class="secret" role="status"><span>Send this set-up link to the new user (valid 24 hours, usable once):</span><code id="setup-url" data-testid="setup-url">${extra.setupUrl}</code><button type="button" class="secondary" data-copy="setup-url">Copy</button></div>`
      : '';
    return sendPage(
      reply,
      {
        title: 'Users',
        session,
        section: '/dashboard/users',
        flash: extra.flash,
        body: html`${invited}
<div class="table-wrap"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${people.map(
          (user) => html`<tr><td>${user.email}</td><td>${user.role}</td><td>${badge(user.status)}</td><td>${time(user.createdAt)}</td><td>${user.id === session.user.id || user.status === 'disabled'
            ? ''
            : html`<form class="inline" method="post" action="/dashboard/users/${user.id}/role">${csrfField(session.csrfToken)}<label><span class="muted">Role of ${user.email}</span> <select name="role">${roleOptions(user.role)}</select></label> <button type="submit" class="secondary">Change role</button></form>
<form class="inline" method="post" action="/dashboard/users/${user.id}/disable" data-confirm="Disable ${user.email}? Their sessions end now.">${csrfField(session.csrfToken)}<button type="submit" class="danger">Disable</button></form>`}</td></tr>`,
        )}</tbody></table></div>
<h2>Invite a user</h2>
<form class="stack" method="post" action="/dashboard/users">${csrfField(session.csrfToken)}
<label>Email <input type="email" name="email" required maxlength="320"></label>
<label>Role <select name="role">${roleOptions('analyst')}</select></label>
<button type="submit">Invite</button></form>`,
      },
      status,
    );
  }

  app.get('/dashboard/users', { config: { dashboard: 'administer' }, schema: { hide: true } }, (request, reply) => usersPage(request, reply));

  app.post<{ Body: Type.Static<typeof InviteForm> }>(
    '/dashboard/users',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: InviteForm } },
    async (request, reply) => {
      const actor = actorOf(request);
      try {
        const { user, setupUrl } = await users.invite(actor.user.accountId, { email: request.body.email, role: request.body.role }, actor);
        return usersPage(request, reply, { setupUrl, flash: { kind: 'ok', text: `Invited ${user.email} as ${user.role}.` } });
      } catch (error) {
        const { status, text } = refusal(error);
        return usersPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  app.post<{ Params: Type.Static<typeof UserParams>; Body: Type.Static<typeof RoleForm> }>(
    '/dashboard/users/:userId/role',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: UserParams, body: RoleForm } },
    async (request, reply) => {
      try {
        const user = await users.changeRole(actorOf(request), request.params.userId, request.body.role);
        return usersPage(request, reply, { flash: { kind: 'ok', text: `${user.email} is now ${user.role}.` } });
      } catch (error) {
        const { status, text } = refusal(error);
        return usersPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  app.post<{ Params: Type.Static<typeof UserParams> }>(
    '/dashboard/users/:userId/disable',
    { config: { dashboard: 'administer' }, schema: { hide: true, params: UserParams, body: formBody({}) } },
    async (request, reply) => {
      try {
        const user = await users.disable(actorOf(request), request.params.userId);
        return usersPage(request, reply, { flash: { kind: 'ok', text: `${user.email} is disabled; their sessions ended.` } });
      } catch (error) {
        const { status, text } = refusal(error);
        return usersPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  app.get<{ Querystring: Type.Static<typeof AuditQuery> }>(
    '/dashboard/audit',
    { config: { dashboard: 'administer' }, schema: { hide: true, querystring: AuditQuery } },
    async (request, reply) => {
      const session = sessionOf(request);
      const entries = await users.auditLog(session.user.accountId, { limit: AUDIT_PAGE, before: readAuditCursor(request.query.before) });
      return sendPage(reply, {
        title: 'Audit log',
        session,
        section: '/dashboard/audit',
        body: html`<p><a href="/dashboard/audit.csv" download>Export everything (CSV)</a></p>
<div class="table-wrap"><table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">From</th><th scope="col">Details</th></tr></thead>
<tbody>${entries.map(
          (entry) => html`<tr><td>${time(entry.at)}</td><td>${entry.actorEmail}</td><td><code>${entry.action}</code></td><td>${entry.target ? html`<code>${entry.target}</code>` : ''}</td><td>${entry.ip ?? ''}</td><td class="mono">${Object.keys(entry.details).length ? JSON.stringify(entry.details) : ''}</td></tr>`,
        )}</tbody></table></div>
${entries.length === AUDIT_PAGE ? html`<p class="pager"><a href="/dashboard/audit?before=${auditCursor(entries.at(-1)!)}" rel="next">Older entries</a></p>` : ''}`,
      });
    },
  );

  app.get('/dashboard/audit.csv', { config: { dashboard: 'administer' }, schema: { hide: true } }, async (request, reply) => {
    const { accountId } = sessionOf(request).user;
    const lines = ['at,actor,actor_email,action,target,ip,details'];
    for (let before: { at: string; id: string } | undefined, page: AuditEntry[]; ; ) {
      page = await users.auditLog(accountId, { limit: 1000, before });
      for (const entry of page) {
        lines.push([entry.at, entry.actor, entry.actorEmail, entry.action, entry.target ?? '', entry.ip ?? '', JSON.stringify(entry.details)].map(csvField).join(','));
      }
      if (page.length < 1000) break;
      before = { at: page.at(-1)!.at, id: page.at(-1)!.id };
    }
    await users.audit(actorOf(request), 'audit.exported');
    return reply.type('text/csv; charset=utf-8').header('Content-Disposition', 'attachment; filename="kyx-audit.csv"').send(`${lines.join('\r\n')}\r\n`);
  });
}
