import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Escrow, EscrowService } from '../../escrow/service.ts';
import type { UsersService } from '../../users/service.ts';
import { actorOf, may, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { badge, html, time } from '../../http/html.ts';
import { csrfField, sendNotFound, sendPage } from '../layout.ts';

const EscrowParams = Type.Object({ escrowId: Type.String({ maxLength: 100 }) });
const OpenEscrowForm = formBody({
  amount: Type.String({ maxLength: 20, pattern: '^\\d+(\\.\\d{1,3})?$' }),
  currency: Type.String({ maxLength: 3 }),
  buyer: Type.String({ maxLength: 200 }),
  seller: Type.String({ maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** How many minor-unit digits the currency has (2 for USD, 0 for JPY, 3 for BHD). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The stored minor units as people write the amount: 1234 USD → 12.34 USD. */
const major = (escrow: Escrow) => `${(escrow.amount / 10 ** minorDigits(escrow.currency)).toFixed(minorDigits(escrow.currency))} ${escrow.currency}`;

export async function escrowRoutes(app: FastifyInstance, { escrow, users }: { escrow: EscrowService; users: UsersService }): Promise<void> {
  async function listPage(request: FastifyRequest, reply: FastifyReply, flash?: { kind: 'ok' | 'error'; text: string }, status = 200) {
    const session = sessionOf(request);
    const escrows = await escrow.list(session.user.accountId);
    return sendPage(
      reply,
      {
        title: 'Escrow',
        session,
        section: '/dashboard/escrows',
        flash,
        body: html`${escrows.length
          ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Escrow</th><th scope="col">Amount</th><th scope="col">Buyer</th><th scope="col">Seller</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${escrows.map((item) => html`<tr><td><a href="/dashboard/escrows/${item.escrowId}"><code>${item.escrowId}</code></a></td><td>${major(item)}</td><td>${item.buyer}</td><td>${item.seller}</td><td>${badge(item.status)}</td><td>${time(item.createdAt)}</td></tr>`)}</tbody></table></div>`
          : html`<p class="muted">No escrows.</p>`}
${may(session.user.role, 'administer')
  ? html`<h2>Open an escrow</h2>
<form class="stack" method="post" action="/dashboard/escrows">${csrfField(session.csrfToken)}
<label>Amount <input name="amount" inputmode="decimal" required pattern="\\d+(\\.\\d{1,3})?" placeholder="1250.00"></label>
<label>Currency (ISO 4217) <input name="currency" required maxlength="3" placeholder="USD"></label>
<label>Buyer <input name="buyer" required maxlength="200"></label>
<label>Seller <input name="seller" required maxlength="200"></label>
<label>Description <textarea name="description" maxlength="2000"></textarea></label>
<button type="submit">Open escrow</button></form>`
  : ''}`,
      },
      status,
    );
  }

  app.get('/dashboard/escrows', { config: { dashboard: 'read' }, schema: { hide: true } }, (request, reply) => listPage(request, reply));

  app.post<{ Body: Type.Static<typeof OpenEscrowForm> }>(
    '/dashboard/escrows',
    { config: { dashboard: 'administer' }, schema: { hide: true, body: OpenEscrowForm } },
    async (request, reply) => {
      const { amount, currency, buyer, seller, description } = request.body;
      const code = currency.trim().toUpperCase();
      const [whole, fraction = ''] = amount.split('.');
      const digits = minorDigits(code);
      if (fraction.length > digits) return listPage(request, reply, { kind: 'error', text: `amount has more decimals than ${code} has (${digits})` }, 400);
      try {
        const opened = await escrow.open(sessionOf(request).user.accountId, {
          amount: Number(whole + fraction.padEnd(digits, '0')),
          currency: code,
          buyer: buyer.trim(),
          seller: seller.trim(),
          description: description?.trim() || undefined,
        });
        await users.audit(actorOf(request), 'escrow.opened', opened.escrowId, { amount: opened.amount, currency: opened.currency });
        return reply.redirect(`/dashboard/escrows/${opened.escrowId}`, 303);
      } catch (error) {
        const { status, text } = refusal(error);
        return listPage(request, reply, { kind: 'error', text }, status);
      }
    },
  );

  app.get<{ Params: Type.Static<typeof EscrowParams> }>(
    '/dashboard/escrows/:escrowId',
    { config: { dashboard: 'read' }, schema: { hide: true, params: EscrowParams } },
    async (request, reply) => {
      const session = sessionOf(request);
      const found = await escrow.find(session.user.accountId, request.params.escrowId);
      if (!found) return sendNotFound(reply, session, 'escrow');
      return sendPage(reply, {
        title: `Escrow ${found.escrowId}`,
        session,
        section: '/dashboard/escrows',
        body: html`<dl class="facts">
<dt>Status</dt><dd>${badge(found.status)}</dd><dt>Amount</dt><dd>${major(found)}</dd>
<dt>Buyer</dt><dd>${found.buyer}</dd><dt>Seller</dt><dd>${found.seller}</dd>
<dt>Description</dt><dd>${found.description ?? '—'}</dd>
<dt>Created</dt><dd>${time(found.createdAt)}</dd><dt>Updated</dt><dd>${time(found.updatedAt)}</dd></dl>
<p class="muted">Read it through the API: <code>GET /api/v1/escrow/${found.escrowId}</code></p>`,
      });
    },
  );
}
