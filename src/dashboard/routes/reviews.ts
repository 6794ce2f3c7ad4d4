import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StoredCheck } from '../../core.ts';
import type { ReviewsService } from '../../reviews/service.ts';
import type { UsersService } from '../../users/service.ts';
import { actorOf, may, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';

const PAGE_SIZE = 50;
const QueueQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false });
const DecisionParams = Type.Object({ checkId: Type.String({ maxLength: 100 }) });
const DecisionForm = formBody({
  decision: Type.Union([Type.Literal('approved'), Type.Literal('rejected')]),
  reason: Type.String({ minLength: 1, maxLength: 2000 }),
});

export function decisionForm(checkId: string, csrfToken: string): Html {
  return html`<form class="stack" method="post" action="/dashboard/reviews/${checkId}">${csrfField(csrfToken)}
<fieldset><legend>Decision</legend>
<label><span><input type="radio" name="decision" value="approved" required> Approve</span></label>
<label><span><input type="radio" name="decision" value="rejected"> Reject</span></label></fieldset>
<label>Reason <textarea name="reason" required maxlength="2000"></textarea></label>
<button type="submit">Record decision</button></form>`;
}

export async function reviewRoutes(app: FastifyInstance, { reviews, users, labelOf }: { reviews: ReviewsService; users: UsersService; labelOf: (check: StoredCheck) => string }): Promise<void> {
  async function queuePage(request: FastifyRequest, reply: FastifyReply, cursor?: string, flash?: { kind: 'ok' | 'error'; text: string }, status = 200) {
    const session = sessionOf(request);
    const page = await reviews.queue(session.user.accountId, { limit: PAGE_SIZE, cursor });
    const canDecide = may(session.user.role, 'work');
    return sendPage(
      reply,
      {
        title: 'Review queue',
        session,
        section: '/dashboard/reviews',
        flash,
        body: html`<p class="muted">Checks whose outcome awaits a person's decision, oldest first. A check is decided once.</p>
${page.data.length === 0
  ? html`<p>Nothing waits for review.</p>`
  : html`<div class="table-wrap"><table><thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Subject</th><th scope="col">Outcome</th><th scope="col">Waiting since</th>${canDecide ? html`<th scope="col">Decide</th>` : ''}</tr></thead>
<tbody>${page.data.map(
    (check) => html`<tr><td><a href="/dashboard/checks/${check.id}"><code>${check.id}</code></a></td><td>${labelOf(check)}</td><td>${check.summary.subject ?? '—'}</td><td>${badge(check.summary.status)}</td><td>${time(check.createdAt)}</td>
${canDecide ? html`<td><details><summary>Decide</summary>${decisionForm(check.id, session.csrfToken)}</details></td>` : ''}</tr>`,
  )}</tbody></table></div>`}
${page.nextCursor ? html`<p class="pager"><a href="/dashboard/reviews?cursor=${page.nextCursor}" rel="next">More</a></p>` : ''}`,
      },
      status,
    );
  }

  app.get<{ Querystring: Type.Static<typeof QueueQuery> }>(
    '/dashboard/reviews',
    { config: { dashboard: 'read' }, schema: { hide: true, querystring: QueueQuery } },
    (request, reply) => queuePage(request, reply, request.query.cursor),
  );

  app.post<{ Params: Type.Static<typeof DecisionParams>; Body: Type.Static<typeof DecisionForm> }>(
    '/dashboard/reviews/:checkId',
    { config: { dashboard: 'work' }, schema: { hide: true, params: DecisionParams, body: DecisionForm } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { decision, reason } = request.body;
      try {
        const check = await reviews.decide({ accountId: actor.user.accountId, checkId: request.params.checkId, decision, reason, decidedBy: actor.user.id });
        await users.audit(actor, 'check.review_decided', check.id, { decision });
        return queuePage(request, reply, undefined, { kind: 'ok', text: `${check.id} ${decision}.` });
      } catch (error) {
        const { status, text } = refusal(error);
        return queuePage(request, reply, undefined, { kind: 'error', text }, status);
      }
    },
  );
}
