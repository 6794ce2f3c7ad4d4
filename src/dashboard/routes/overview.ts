import type { FastifyInstance } from 'fastify';
import { UNLIMITED } from '../../accounts/plans.ts';
import type { AccountUsage, AccountsService } from '../../accounts/service.ts';
import type { WebhooksService } from '../../webhooks/service.ts';
import { may, sessionOf } from '../access.ts';
import { type Html, html } from '../../http/html.ts';
import { sendPage } from '../layout.ts';

const METER_LABELS: Record<keyof AccountUsage['meters'], string> = {
  kycChecks: 'KYC checks',
  kybChecks: 'KYB checks',
  amlScreenings: 'AML screenings',
  kyaChecks: 'KYA checks',
};

const allowance = (used: number, limit: number) => (limit === UNLIMITED ? `${used} (no limit)` : `${used} of ${limit}`);

/** Calls per day as bars, with a text alternative listing every figure. */
function chart(days: AccountUsage['days']): Html {
  const width = 600;
  const height = 160;
  const peak = Math.max(1, ...days.map((day) => day.calls));
  const slot = width / days.length;
  const summary = days.map((day) => `${day.day}: ${day.calls}`).join(', ');
  return html`<svg class="chart" viewBox="0 0 ${width} ${height + 20}" role="img" aria-labelledby="chart-title chart-desc">
<title id="chart-title">API calls per day, last ${days.length} days</title>
<desc id="chart-desc">${summary}</desc>
${days.map((day, index) => {
  const bar = Math.round((day.calls / peak) * height);
  return html`<rect x="${(index * slot + 1).toFixed(1)}" y="${height - bar}" width="${(slot - 2).toFixed(1)}" height="${bar}"><title>${day.day}: ${day.calls} calls</title></rect>`;
})}
<text x="0" y="${height + 16}" font-size="12">${days[0]?.day}</text>
<text x="${width}" y="${height + 16}" font-size="12" text-anchor="end">${days.at(-1)?.day}</text>
</svg>`;
}

export async function overviewRoutes(app: FastifyInstance, { accounts, webhooks }: { accounts: AccountsService; webhooks: WebhooksService }): Promise<void> {
  app.get('/dashboard', { config: { dashboard: 'read' }, schema: { hide: true } }, async (request, reply) => {
    const session = sessionOf(request);
    const admin = may(session.user.role, 'administer');
    const [usage, endpoints] = await Promise.all([accounts.usage(session.user.accountId, new Date()), admin ? webhooks.list(session.user.accountId) : []]);
    const disabled = endpoints.filter((endpoint) => endpoint.status === 'disabled');
    return sendPage(reply, {
      title: 'Overview',
      session,
      section: '/dashboard',
      flash: disabled.length
        ? { kind: 'error', text: `${disabled.length} webhook endpoint${disabled.length > 1 ? 's were' : ' was'} disabled after failing for the retry period: see Webhooks.` }
        : undefined,
      body: html`<p>Plan: <strong>${usage.plan.name}</strong></p>
<div class="cards">
  <div class="card"><h2>Calls today</h2><p class="figure" data-figure="today">${allowance(usage.today, usage.limits.requestsPerDay)}</p></div>
  <div class="card"><h2>Calls this month</h2><p class="figure" data-figure="month">${allowance(usage.thisMonth, usage.limits.requestsPerMonth)}</p></div>
</div>
<h2>Billable checks this month (live keys)</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Product</th><th scope="col">Count</th></tr></thead><tbody>
${Object.entries(usage.meters).map(([meter, count]) => html`<tr><th scope="row">${METER_LABELS[meter as keyof AccountUsage['meters']]}</th><td>${count}</td></tr>`)}
</tbody></table></div>
<h2>Last 30 days</h2>
${chart(usage.days)}`,
    });
  });
}
