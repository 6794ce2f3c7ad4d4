import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Bundle, ReportsService } from '../reports/service.ts';
import type { UsersService } from '../users/service.ts';
import { actorOf, sessionOf } from './access.ts';
import { formBody } from './forms.ts';
import { type Html, badge, html, time } from '../http/html.ts';
import { csrfField } from './layout.ts';

/** The form that registers an RPT-016 bundle for a check or a workflow run. */
export const BundleForm = formBody({ regulatorRef: Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }) });

export function runLink(runId: string): Html {
  return html`<a href="/dashboard/workflows/runs/${runId}"><code>${runId}</code></a>`;
}

function bundleRow(bundle: Bundle): Html {
  return html`<tr><td><a href="/dashboard/bundles/${bundle.bundleId}"><code>${bundle.bundleId}</code></a></td><td>${bundle.regulatorRef}</td><td>${badge(bundle.status)}</td><td>${time(bundle.createdAt)}</td>
<td>${bundle.status === 'ready' ? html`<a href="/dashboard/bundles/${bundle.bundleId}/archive.zip" download>Download ZIP</a>` : ''}</td></tr>`;
}

/** The RPT-016 bundles of a check or a workflow run, and (for those who may) the form that registers one at `action`. */
export function bundlesSection(bundles: readonly Bundle[], action: string, csrfToken: string, canWork: boolean): Html {
  return html`<h2>Evidence bundles (RPT-016)</h2>
${bundles.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Bundle</th><th scope="col">Regulator reference</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Archive</th></tr></thead><tbody>${bundles.map(bundleRow)}</tbody></table></div>` : html`<p class="muted">None yet.</p>`}
${canWork ? html`<form class="stack" method="post" action="${action}">${csrfField(csrfToken)}
<label>Regulator reference <input name="regulatorRef" required maxlength="128"></label>
<button type="submit">Create evidence bundle</button></form>` : ''}`;
}


type Flash = { kind: 'ok' | 'error'; text: string };

/**
 * Registers a bundle of `subjectId` (a check or a run) from the form and opens its page; otherwise shows the subject's
 * page again: as not found, or with the reasons the types were refused.
 */
export async function registerBundleFromForm(
  { reports, users }: { reports: ReportsService; users: UsersService },
  request: FastifyRequest<{ Body: Type.Static<typeof BundleForm> }>,
  reply: FastifyReply,
  subjectId: string,
  subjectPage: (flash?: Flash, status?: number) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const registration = await reports.registerBundle(sessionOf(request).user.accountId, { checkId: subjectId, regulatorRef: request.body.regulatorRef });
  if (!registration.ok) {
    if ('notFound' in registration) return subjectPage();
    return subjectPage({ kind: 'error', text: registration.reasons.map((reason) => reason.reason).join('; ') }, 422);
  }
  await users.audit(actorOf(request), 'bundle.created', registration.bundle.bundleId, { subjectId });
  return reply.redirect(`/dashboard/bundles/${registration.bundle.bundleId}`, 303);
}
