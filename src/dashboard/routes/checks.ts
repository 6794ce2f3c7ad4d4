import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StoredCheck } from '../../core.ts';
import type { CheckStore } from '../../storage/checks.ts';
import type { ReportsService } from '../../reports/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { WorkflowsService } from '../../workflows/service.ts';
import { may, sessionOf } from '../access.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { sendNotFound, sendPage } from '../layout.ts';
import { decisionForm } from './reviews.ts';
import { recordView } from '../record-view.ts';
import { BundleForm, bundlesSection, registerBundleFromForm, runLink } from '../evidence.ts';

const PAGE_SIZE = 25;
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const ChecksQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 20 })),
    status: Type.Optional(Type.String({ maxLength: 40, pattern: '^[a-z_]*$' })),
    environment: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('sandbox'), Type.Literal('live')])),
    from: Type.Optional(Type.Union([Type.Literal(''), Day])),
    to: Type.Optional(Type.Union([Type.Literal(''), Day])),
    q: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]*$' })),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
type ChecksQuery = Type.Static<typeof ChecksQuery>;
const CheckParams = Type.Object({ checkId: Type.String({ maxLength: 100 }) });
const BundleParams = Type.Object({ bundleId: Type.String({ maxLength: 100 }) });

const DAY_MS = 86_400_000;

export function checkLink(check: StoredCheck): Html {
  return html`<a href="/dashboard/checks/${check.id}"><code>${check.id}</code></a>`;
}

export function checksTable(checks: readonly StoredCheck[], labelOf: (check: StoredCheck) => string): Html {
  if (checks.length === 0) return html`<p class="muted">No checks.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Subject</th><th scope="col">Status</th><th scope="col">Environment</th><th scope="col">Created</th></tr></thead>
<tbody>${checks.map(
    (check) => html`<tr><td>${checkLink(check)}</td><td>${labelOf(check)}</td><td>${check.summary.subject ?? html`<span class="muted">—</span>`}</td>
<td>${badge(check.summary.status)}${check.record.review ? html` ${badge((check.record.review as { decision: string }).decision)}` : ''}</td><td>${check.environment}</td><td>${time(check.createdAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

export async function checkRoutes(
  app: FastifyInstance,
  { checks, reports, users, workflows }: { checks: CheckStore; reports: ReportsService; users: UsersService; workflows: WorkflowsService },
): Promise<void> {
  const labelOf = (check: StoredCheck) => checks.kindOf(check.id)?.label ?? check.kind;

  app.get<{ Querystring: ChecksQuery }>(
    '/dashboard/checks',
    { config: { dashboard: 'read' }, schema: { hide: true, querystring: ChecksQuery } },
    async (request, reply) => {
      const session = sessionOf(request);
      const query = request.query;
      const kinds = checks.kinds.map((kind) => kind.kind);
      if (query.kind && !kinds.includes(query.kind)) return reply.redirect('/dashboard/checks', 303);
      const page = await checks.list(session.user.accountId, {
        kinds: query.kind ? [query.kind] : undefined,
        limit: PAGE_SIZE,
        cursor: query.cursor || undefined,
        filter: {
          status: query.status || undefined,
          environment: query.environment || undefined,
          createdFrom: query.from ? `${query.from}T00:00:00.000Z` : undefined,
          createdBefore: query.to ? new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS).toISOString() : undefined,
          text: query.q?.trim() || undefined,
        },
      });
      const nextQuery = new URLSearchParams(
        Object.entries({ ...query, cursor: page.nextCursor ?? '' }).filter((entry): entry is [string, string] => Boolean(entry[1])),
      );
      const selected = (value: string | undefined, option: string) => (value === option ? html` selected` : '');
      return sendPage(reply, {
        title: 'Checks',
        session,
        section: '/dashboard/checks',
        body: html`<form class="filters" method="get" action="/dashboard/checks" role="search">
<label>Kind <select name="kind"><option value="">all</option>${checks.kinds.map((kind) => html`<option value="${kind.kind}"${selected(query.kind, kind.kind)}>${kind.label}</option>`)}</select></label>
<label>Status <input name="status" value="${query.status ?? ''}" placeholder="review, passed…" size="12"></label>
<label>Environment <select name="environment"><option value="">both</option><option value="sandbox"${selected(query.environment, 'sandbox')}>sandbox</option><option value="live"${selected(query.environment, 'live')}>live</option></select></label>
<label>From <input type="date" name="from" value="${query.from ?? ''}"></label>
<label>To <input type="date" name="to" value="${query.to ?? ''}"></label>
<label>Search <input type="search" name="q" value="${query.q ?? ''}" placeholder="reference, name, id"></label>
<button type="submit">Filter</button></form>
${checksTable(page.data, labelOf)}
${page.nextCursor ? html`<p class="pager"><a href="/dashboard/checks?${nextQuery.toString()}" rel="next">Older checks</a></p>` : ''}`,
      });
    },
  );

  async function checkPage(request: FastifyRequest<{ Params: { checkId: string } }>, reply: FastifyReply, flash?: { kind: 'ok' | 'error'; text: string }, status = 200) {
    const session = sessionOf(request);
    const check = await checks.find(session.user.accountId, request.params.checkId);
    if (!check) return sendNotFound(reply, session, 'check');
    const kind = checks.kindOf(check.id)!;
    const review = check.record.review as { decision: string; reason: string; decidedBy: string; decidedAt: string } | undefined;
    const awaiting = !review && (kind.review?.awaiting ?? []).includes(check.summary.status);
    const canWork = may(session.user.role, 'work');
    const [bundles, runs] = await Promise.all([reports.bundlesOf(session.user.accountId, check.id), workflows.listRuns(session.user.accountId, { limit: 5, checkId: check.id })]);
    return sendPage(
      reply,
      {
        title: `${kind.label} ${check.id}`,
        session,
        section: '/dashboard/checks',
        flash,
        body: html`<dl class="facts">
<dt>Status</dt><dd>${badge(check.summary.status)}</dd>
<dt>Subject</dt><dd>${check.summary.subject ?? '—'}</dd>
<dt>Environment</dt><dd>${check.environment}</dd>
<dt>Created</dt><dd>${time(check.createdAt)}</dd>
${review ? html`<dt>Human review</dt><dd>${badge(review.decision)} by <code>${review.decidedBy}</code> ${time(review.decidedAt)}: ${review.reason}</dd>` : ''}
</dl>
<p><a href="/dashboard/checks/${check.id}/report.pdf" download="${kind.report.code}-${check.id}.pdf">Download the report (${kind.report.code}, PDF)</a></p>
${awaiting && canWork ? html`<h2>Decide</h2>${decisionForm(check.id, session.csrfToken)}` : ''}
${runs.length ? html`<p>Part of workflow run ${runs.map((run) => html`${runLink(run.runId)} `)}</p>` : ''}
${bundlesSection(bundles, `/dashboard/checks/${check.id}/bundles`, session.csrfToken, canWork)}
<h2>Signals and reasons</h2>
${recordView(check.record)}
<details><summary>As JSON (what the API returns)</summary><pre>${JSON.stringify(check.record, null, 2)}</pre></details>`,
      },
      status,
    );
  }

  app.get<{ Params: Type.Static<typeof CheckParams> }>(
    '/dashboard/checks/:checkId',
    { config: { dashboard: 'read' }, schema: { hide: true, params: CheckParams } },
    (request, reply) => checkPage(request, reply),
  );

  app.get<{ Params: Type.Static<typeof CheckParams> }>(
    '/dashboard/checks/:checkId/report.pdf',
    { config: { dashboard: 'read' }, schema: { hide: true, params: CheckParams } },
    async (request, reply) => {
      const { accountId } = sessionOf(request).user;
      const kind = checks.kindOf(request.params.checkId);
      const pdf = kind && (await reports.renderCheckReport(accountId, kind.report.code, request.params.checkId));
      if (!pdf) return sendNotFound(reply, sessionOf(request), 'check');
      return reply.type('application/pdf').header('Content-Disposition', `attachment; filename="${kind.report.code}-${request.params.checkId}.pdf"`).send(pdf);
    },
  );

  app.post<{ Params: Type.Static<typeof CheckParams>; Body: Type.Static<typeof BundleForm> }>(
    '/dashboard/checks/:checkId/bundles',
    { config: { dashboard: 'work' }, schema: { hide: true, params: CheckParams, body: BundleForm } },
    (request, reply) => registerBundleFromForm({ reports, users }, request, reply, request.params.checkId, (flash, status) => checkPage(request, reply, flash, status)),
  );

  app.get<{ Params: Type.Static<typeof BundleParams> }>(
    '/dashboard/bundles/:bundleId',
    { config: { dashboard: 'read' }, schema: { hide: true, params: BundleParams } },
    async (request, reply) => {
      const session = sessionOf(request);
      const bundle = await reports.findBundle(session.user.accountId, request.params.bundleId);
      if (!bundle) return sendNotFound(reply, session, 'bundle');
      return sendPage(reply, {
        title: `Evidence bundle ${bundle.bundleId}`,
        session,
        section: '/dashboard/checks',
        body: html`<dl class="facts">
<dt>Status</dt><dd data-testid="bundle-status">${badge(bundle.status)}</dd>
<dt>For</dt><dd>${bundle.checkId.startsWith('wfr_') ? runLink(bundle.checkId) : html`<a href="/dashboard/checks/${bundle.checkId}"><code>${bundle.checkId}</code></a>`}</dd>
<dt>Regulator reference</dt><dd>${bundle.regulatorRef}</dd>
<dt>Reports</dt><dd>${bundle.includeTypes.join(', ')}</dd>
<dt>Created</dt><dd>${time(bundle.createdAt)}</dd>
${bundle.failureReason ? html`<dt>Failure</dt><dd>${bundle.failureReason}</dd>` : ''}
${bundle.archive ? html`<dt>Archive</dt><dd>${bundle.archive.bytes} bytes, SHA-256 <code>${bundle.archive.sha256}</code></dd>` : ''}
</dl>
${bundle.status === 'ready'
  ? html`<p><a href="/dashboard/bundles/${bundle.bundleId}/archive.zip" download>Download the archive (ZIP)</a></p>`
  : bundle.status === 'generating' ? html`<p>Being built. <a href="/dashboard/bundles/${bundle.bundleId}">Refresh</a></p>` : ''}`,
      });
    },
  );

  app.get<{ Params: Type.Static<typeof BundleParams> }>(
    '/dashboard/bundles/:bundleId/archive.zip',
    { config: { dashboard: 'read' }, schema: { hide: true, params: BundleParams } },
    async (request, reply) => {
      const session = sessionOf(request);
      const archive = await reports.loadArchive(session.user.accountId, request.params.bundleId);
      if (!archive) return sendNotFound(reply, session, 'ready bundle');
      return reply.type('application/zip').header('Content-Disposition', `attachment; filename="${request.params.bundleId}.zip"`).send(archive);
    },
  );
}
