import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../core.ts';
import { apiError } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { recordRoute } from '../http/record-route.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import {
  KyaCertificate,
  KyaIdParams,
  KyaNotScreenedBody,
  KyaVerificationRecord,
  KyaVerifyRequest,
  KyaVerifyResponse,
} from './schemas.ts';
import type { KyaService } from './service.ts';

export async function kyaRoutes(app: FastifyInstance, { platform, service: kya }: { platform: Platform; service: KyaService }): Promise<void> {
  app.post<{ Body: KyaVerifyRequest }>(
    '/api/v1/kya/verify',
    {
      config: { access: { scope: 'kya:verify', metered: true } },
      schema: {
        tags: ['kya'],
        summary: 'Screen an agent prompt for injection and issue an agent certificate (identity-only without a prompt)',
        security: bearerSecurity,
        body: KyaVerifyRequest,
        response: {
          200: KyaVerifyResponse,
          503: Type.Union([KyaNotScreenedBody, errorResponses(503)[503]], {
            description: "`not_screened`: no model verdict and no blocking signature, nothing is allowed or issued; `not_ready`: the operator's ONNX model failed, retry",
          }),
          ...errorResponses(...API_ERRORS, 413),
        },
      },
    },
    async (request): Promise<KyaVerifyResponse> => {
      const principal = principalOf(request);
      return kya.verify({ accountId: principal.account.id, environment: principal.environment }, request.body);
    },
  );

  recordRoute<KyaIdParams>(app, {
    url: '/api/v1/kya/verifications/:id',
    scope: 'kya:read',
    tags: ['kya'],
    summary: 'A stored KYA verification (the prompt only when the operator keeps prompts)',
    params: KyaIdParams,
    idParam: 'id',
    response: KyaVerificationRecord,
    notFound: 'No such verification',
    find: async (accountId, id) => (await platform.checks.find(accountId, id, 'kya'))?.record,
  });

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
