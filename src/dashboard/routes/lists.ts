import type { FastifyInstance } from 'fastify';
import type { AmlService } from '../../aml/service.ts';
import { sessionOf } from '../access.ts';
import { badge, html, time } from '../../http/html.ts';
import { sendPage } from '../layout.ts';

export async function listRoutes(app: FastifyInstance, { aml }: { aml: AmlService }): Promise<void> {
  app.get('/dashboard/lists', { config: { dashboard: 'read' }, schema: { hide: true } }, async (request, reply) => {
    const session = sessionOf(request);
    const { listsVersion, lists } = aml.publicStatus();
    return sendPage(reply, {
      title: 'AML lists',
      session,
      section: '/dashboard/lists',
      body: html`<p>Screening against version <code>${listsVersion ?? 'none loaded'}</code>.</p>
${lists.length
  ? html`<div class="table-wrap"><table><thead><tr><th scope="col">List</th><th scope="col">Source</th><th scope="col">Version date</th><th scope="col">Entities</th><th scope="col">Loaded</th><th scope="col">Last refresh</th><th scope="col">Status</th></tr></thead>
<tbody>${lists.map(
    (list) => html`<tr><th scope="row">${list.name}</th><td class="mono">${list.source}</td><td>${list.versionDate ?? '—'}</td><td>${list.entityCount}</td><td>${time(list.loadedAt)}</td><td>${time(list.lastCheckedAt)}</td>
<td>${list.lastError ? html`${badge('failed')} ${list.lastError}` : list.loadedAt ? badge('loaded') : badge('pending')}</td></tr>`,
  )}</tbody></table></div>`
  : html`<p>No list is configured. Operators set <code>KYX_LISTS_DIR</code> or run <code>kyx lists import</code>.</p>`}`,
    });
  });
}
