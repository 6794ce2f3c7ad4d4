import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StoredCheck } from '../../core.ts';
import { DomainError } from '../../errors.ts';
import { KyaVerifyRequest, KyaVerifyResponse } from '../../kya/schemas.ts';
import type { KyaService } from '../../kya/service.ts';
import type { CheckStore } from '../../storage/checks.ts';
import type { UsersService } from '../../users/service.ts';
import { actorOf, may, sessionOf } from '../access.ts';
import { formBody, refusal } from '../forms.ts';
import { type Html, badge, html } from '../../http/html.ts';
import { csrfField, sendPage } from '../layout.ts';
import { checksTable } from './checks.ts';

const Environment = Type.Union([Type.Literal('test'), Type.Literal('live')]);
const VerifyQuery = Type.Object({ environment: Type.Optional(Environment) }, { additionalProperties: false });
const VerifyForm = formBody({
  prompt: Type.String({ maxLength: 40_000 }),
  agentName: Type.Optional(Type.String({ maxLength: 200 })),
  environment: Environment,
});
const CertificateForm = formBody({ token: Type.String({ minLength: 1, maxLength: 20_000 }) });

type Flash = { kind: 'ok' | 'error'; text: string };

export async function kyaRoutes(
  app: FastifyInstance,
  { kya, checks, users, labelOf }: { kya: KyaService; checks: CheckStore; users: UsersService; labelOf: (check: StoredCheck) => string },
): Promise<void> {
  async function kyaPage(request: FastifyRequest, reply: FastifyReply, extra: { result?: Html; flash?: Flash } = {}, status = 200) {
    const session = sessionOf(request);
    const recent = await checks.list(session.user.accountId, { kinds: ['kya'], limit: 20 });
    return sendPage(
      reply,
      {
        title: 'KYA',
        session,
        section: '/dashboard/kya',
        flash: extra.flash,
        body: html`${extra.result ?? ''}
${may(session.user.role, 'work')
  ? html`<h2>Verify a prompt</h2>
<form class="stack" method="post" action="/dashboard/kya/verify">${csrfField(session.csrfToken)}
<label>Prompt <textarea name="prompt" required maxlength="40000"></textarea></label>
<label>Agent name (optional) <input name="agentName" maxlength="200"></label>
<label>Environment <select name="environment"><option value="live">live: screened by the model, billed</option><option value="test">test: sandbox fixture</option></select></label>
<button type="submit">Verify</button></form>`
  : ''}
<h2>Check a certificate</h2>
<form class="stack" method="post" action="/dashboard/kya/certificate">${csrfField(session.csrfToken)}
<label>Certificate (compact JWS) <textarea name="token" required></textarea></label>
<button type="submit">Check against the JWKS</button></form>
<h2>Recent verifications</h2>
${checksTable(recent.data, labelOf)}`,
      },
      status,
    );
  }

  function outcome(result: KyaVerifyResponse): Html {
    return html`<section aria-labelledby="kya-result"><h2 id="kya-result">Result</h2><dl class="facts" data-testid="kya-result">
<dt>Verification</dt><dd><a href="/dashboard/checks/${result.verificationId}"><code>${result.verificationId}</code></a></dd>
<dt>Outcome</dt><dd>${badge(result.screening.outcome)}</dd>
<dt>Action</dt><dd>${result.action}</dd>
<dt>Allowed</dt><dd>${result.allowed ? 'yes' : 'no'}</dd>
<dt>Model verdict</dt><dd>${result.screening.modelVerdict ? `yes (injection score ${result.screening.injectionScore?.toFixed(3)})` : 'no'}</dd>
<dt>Signatures</dt><dd>${result.screening.signatures.join(', ') || 'none'}</dd>
${result.certificate ? html`<dt>Certificate</dt><dd><code>${result.certificate.id}</code> (${result.certificate.alg})</dd>` : ''}
</dl></section>`;
  }

  app.get('/dashboard/kya', { config: { dashboard: 'read' }, schema: { hide: true } }, (request, reply) => kyaPage(request, reply));

  app.post<{ Body: Type.Static<typeof VerifyForm> }>(
    '/dashboard/kya/verify',
    { config: { dashboard: 'work' }, schema: { hide: true, body: VerifyForm } },
    async (request, reply) => {
      const actor = actorOf(request);
      const { prompt, agentName, environment } = request.body;
      try {
        const result = await kya.verify({ accountId: actor.user.accountId, environment }, { prompt, agent: agentName?.trim() ? { name: agentName.trim() } : undefined });
        await users.audit(actor, 'kya.verified', result.verificationId, { environment, outcome: result.screening.outcome });
        return kyaPage(request, reply, { result: outcome(result) });
      } catch (error) {
        const { status, text } = refusal(error);
        if (error instanceof DomainError && error.details?.verificationId) {
          await users.audit(actor, 'kya.verified', String(error.details.verificationId), { environment, outcome: 'not_screened' });
        }
        return kyaPage(request, reply, { flash: { kind: 'error', text } }, status);
      }
    },
  );

  // The route the specification names: the API's request and answer, the session in place of a key.
  app.post<{ Body: KyaVerifyRequest; Querystring: Type.Static<typeof VerifyQuery> }>(
    '/dashboard/api/kya/verify',
    { config: { dashboard: 'work' }, schema: { hide: true, body: KyaVerifyRequest, querystring: VerifyQuery } },
    async (request): Promise<KyaVerifyResponse> => {
      const actor = actorOf(request);
      const environment = request.query.environment ?? 'live';
      const result = await kya.verify({ accountId: actor.user.accountId, environment }, request.body);
      await users.audit(actor, 'kya.verified', result.verificationId, { environment, outcome: result.screening.outcome });
      return result;
    },
  );

  app.post<{ Body: Type.Static<typeof CertificateForm> }>(
    '/dashboard/kya/certificate',
    { config: { dashboard: 'read' }, schema: { hide: true, body: CertificateForm } },
    async (request, reply) => {
      const checked = await kya.checkCertificate(request.body.token);
      const result = checked.valid
        ? html`<section aria-labelledby="cert-result"><h2 id="cert-result">Certificate</h2><p class="flash flash-ok" data-testid="certificate-result">Valid: signed by this service.</p><pre>${JSON.stringify(checked.claims, null, 2)}</pre></section>`
        : html`<section aria-labelledby="cert-result"><h2 id="cert-result">Certificate</h2><p class="flash flash-error" data-testid="certificate-result">Not valid: ${checked.reason}</p></section>`;
      return kyaPage(request, reply, { result });
    },
  );
}
