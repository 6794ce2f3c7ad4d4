import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ReportsService } from '../../reports/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { RunView, StepView, WorkflowsService } from '../../workflows/service.ts';
import { may, sessionOf } from '../access.ts';
import { type Html, badge, html, time } from '../../http/html.ts';
import { sendNotFound, sendPage } from '../layout.ts';
import { BundleForm, bundlesSection, registerBundleFromForm, runLink } from '../evidence.ts';

const RECENT_RUNS = 50;
const RunParams = Type.Object({ runId: Type.String({ maxLength: 100 }) });

const checksOf = (step: StepView): string[] => step.checkIds ?? (step.checkId ? [step.checkId] : []);

function runsTable(runs: readonly RunView[]): Html {
  if (runs.length === 0) return html`<p class="muted">No runs yet. Start one with <code>POST /api/v1/workflows/{name}/runs</code>.</p>`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Run</th><th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Decision</th><th scope="col">Steps</th><th scope="col">Started</th><th scope="col">Completed</th></tr></thead>
<tbody>${runs.map(
    (run) => html`<tr><td>${runLink(run.runId)}</td><td>${run.workflow} <span class="muted">v${run.version}</span></td><td>${badge(run.status)}</td>
<td>${run.decision ? badge(run.decision) : html`<span class="muted">—</span>`}</td><td>${run.steps.map((step) => html`${badge(step.status)} `)}</td><td>${time(run.startedAt)}</td><td>${time(run.completedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** Named workflows and their runs, each run with its steps, the checks they made and its evidence bundles. */
export async function workflowRoutes(
  app: FastifyInstance,
  { workflows, reports, users }: { workflows: WorkflowsService; reports: ReportsService; users: UsersService },
): Promise<void> {
  app.get('/dashboard/workflows', { config: { dashboard: 'read' }, schema: { hide: true } }, async (request, reply) => {
    const { accountId } = sessionOf(request).user;
    const [published, runs] = await Promise.all([workflows.list(accountId), workflows.listRuns(accountId, { limit: RECENT_RUNS })]);
    return sendPage(reply, {
      title: 'Workflows',
      session: sessionOf(request),
      section: '/dashboard/workflows',
      body: html`<h2>Runs</h2>
${runsTable(runs)}
<h2>Workflows</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Latest version</th><th scope="col">Steps</th><th scope="col">Published</th></tr></thead>
<tbody>${published.map(
        (workflow) => html`<tr><td><code>${workflow.name}</code></td><td>${workflow.version}${workflow.builtIn ? html` <span class="muted">built in</span>` : ''}</td>
<td class="mono">${workflow.definition.steps.map((step) => `${step.id} (${step.kind})`).join(', ')}</td><td>${workflow.builtIn ? html`<span class="muted">—</span>` : time(workflow.createdAt)}</td></tr>`,
      )}</tbody></table></div>
<p class="muted">Publish a version with <code>POST /api/v1/workflows</code> or <code>kyx workflows publish FILE.json --account ID</code>.</p>`,
    });
  });

  async function runPage(request: FastifyRequest<{ Params: { runId: string } }>, reply: FastifyReply, flash?: { kind: 'ok' | 'error'; text: string }, status = 200) {
    const session = sessionOf(request);
    const { accountId } = session.user;
    const run = await workflows.findRun(accountId, request.params.runId);
    if (!run) return sendNotFound(reply, session, 'workflow run');
    const [definition, bundles] = await Promise.all([workflows.find(accountId, run.workflow, run.version), reports.bundlesOf(accountId, run.runId)]);
    return sendPage(
      reply,
      {
        title: `Workflow run ${run.runId}`,
        session,
        section: '/dashboard/workflows',
        flash,
        body: html`<dl class="facts">
<dt>Workflow</dt><dd><code>${run.workflow}</code> version ${run.version}</dd>
<dt>Status</dt><dd data-testid="run-status">${badge(run.status)}</dd>
<dt>Decision</dt><dd>${run.decision ? badge(run.decision) : html`<span class="muted">not yet</span>`}</dd>
<dt>Started</dt><dd>${time(run.startedAt)}</dd><dt>Completed</dt><dd>${time(run.completedAt)}</dd>
</dl>
<h2>Steps</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Step</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Checks</th></tr></thead>
<tbody>${run.steps.map(
          (step) => html`<tr><td><code>${step.id}</code></td><td>${step.kind}</td><td>${badge(step.status)}${step.error ? html`<br><span class="muted">${step.error}</span>` : ''}</td>
<td>${checksOf(step).map((checkId) => html`<a href="/dashboard/checks/${checkId}"><code>${checkId}</code></a> `)}</td></tr>`,
        )}</tbody></table></div>
${bundlesSection(bundles, `/dashboard/workflows/runs/${run.runId}/bundles`, session.csrfToken, may(session.user.role, 'work'))}
${definition ? html`<details><summary>Definition, version ${run.version}</summary><pre>${JSON.stringify(definition.definition, null, 2)}</pre></details>` : ''}`,
      },
      status,
    );
  }

  app.get<{ Params: Type.Static<typeof RunParams> }>(
    '/dashboard/workflows/runs/:runId',
    { config: { dashboard: 'read' }, schema: { hide: true, params: RunParams } },
    (request, reply) => runPage(request, reply),
  );

  app.post<{ Params: Type.Static<typeof RunParams>; Body: Type.Static<typeof BundleForm> }>(
    '/dashboard/workflows/runs/:runId/bundles',
    { config: { dashboard: 'work' }, schema: { hide: true, params: RunParams, body: BundleForm } },
    (request, reply) => registerBundleFromForm({ reports, users }, request, reply, request.params.runId, (flash, status) => runPage(request, reply, flash, status)),
  );
}
