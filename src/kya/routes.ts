import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { apiError, invalidRequest } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { MAX_PROMPT_CHARACTERS } from './config.ts';
import {
  KyaCertificate,
  KyaIdParams,
  KyaNotScreenedBody,
  KyaVerificationRecord,
  KyaVerifyRequest,
  KyaVerifyResponse,
} from './schemas.ts';

export async function kyaRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const kya = context.services.kya;

  app.post<{ Body: KyaVerifyRequest }>(
    '/api/v1/kya/verify',
    {
      config: { access: { scope: 'kya:verify', metered: true } },
      schema: {
        tags: ['kya'],
        summary: 'Screen an agent prompt for injection and issue an agent certificate (identity-only without a prompt)',
        security: bearerSecurity,
        body: KyaVerifyRequest,
        response: { 200: KyaVerifyResponse, 503: KyaNotScreenedBody, ...errorResponses(...API_ERRORS, 413) },
      },
    },
    async (request): Promise<KyaVerifyResponse> => {
      const principal = principalOf(request);
      const result = await kya.verify({ accountId: principal.account.id, environment: principal.environment }, request.body);
      switch (result.kind) {
        case 'verified':
          return result.response;
        case 'not_screened':
          throw apiError('notScreened', 'No screening model judged the prompt and no blocking signature matched; nothing is allowed or issued', {
            verificationId: result.verificationId,
            screening: result.screening,
          });
        case 'invalid':
          if (result.error === 'empty_prompt') {
            throw invalidRequest([{ path: 'body/prompt', message: 'must not be empty; omit prompt for an identity-only certificate' }]);
          }
          throw apiError('payloadTooLarge', `The prompt is longer than ${MAX_PROMPT_CHARACTERS.toLocaleString('en')} characters`);
      }
    },
  );

  app.get<{ Params: KyaIdParams }>(
    '/api/v1/kya/verifications/:id',
    {
      config: { access: { scope: 'kya:read', metered: true } },
      schema: {
        tags: ['kya'],
        summary: 'A stored KYA verification (the prompt only when the operator keeps prompts)',
        security: bearerSecurity,
        params: KyaIdParams,
        response: { 200: KyaVerificationRecord, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request): Promise<KyaVerificationRecord> => {
      const found = await kya.findVerification(principalOf(request).account.id, request.params.id);
      if (!found) throw apiError('notFound', 'No such verification');
      return found.record as KyaVerificationRecord;
    },
  );

  app.get<{ Params: KyaIdParams }>(
    '/api/v1/kya/certificate/:id',
    {
      config: { access: { scope: 'kya:read', metered: true } },
      schema: {
        tags: ['kya'],
        summary: 'A KYA certificate; unsigned sandbox certificates (alg none) are refused',
        security: bearerSecurity,
        params: KyaIdParams,
        response: { 200: KyaCertificate, ...errorResponses(...API_ERRORS, 404, 422) },
      },
    },
    async (request): Promise<KyaCertificate> => {
      const certificate = await kya.findCertificate(principalOf(request).account.id, request.params.id);
      if (!certificate) throw apiError('notFound', 'No such certificate');
      if (certificate.alg === 'none') {
        throw apiError('unsignedCertificate', 'This is an unsigned sandbox certificate (alg none); only signed certificates are served');
      }
      return certificate;
    },
  );
}
