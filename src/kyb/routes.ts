import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../core.ts';
import { principalOf } from '../http/gate.ts';
import { recordRoute } from '../http/record-route.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { KybVerifyRequest, KybVerifyResponse } from './schemas.ts';
import type { KybService } from './service.ts';

const KybIdParams = Type.Object({ kybId: Type.String({ maxLength: 64, description: 'kyb_…' }) });

export async function kybRoutes(app: FastifyInstance, { platform, service }: { platform: Platform; service: KybService }): Promise<void> {
  app.post<{ Body: KybVerifyRequest }>(
    '/api/v1/kyb/verify',
    {
      config: { access: { scope: 'kyb:write', metered: true } },
      schema: {
        tags: ['kyb'],
        summary: 'Verify a business against its company registry, tax authority, financial regulator and GLEIF, and screen its parties',
        description:
          'Test keys are answered by the sandbox registers (magic GB company numbers, see GET /api/v1/sandbox/scenarios); ' +
          'live keys by the configured public registers. A register that is down or slow makes its check `review`, never `passed`.',
        security: bearerSecurity,
        body: KybVerifyRequest,
        response: { 200: KybVerifyResponse, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request): Promise<KybVerifyResponse> => {
      const principal = principalOf(request);
      return service.verify({ accountId: principal.account.id, keyEnvironment: principal.environment }, request.body);
    },
  );

  recordRoute<{ kybId: string }>(app, {
    url: '/api/v1/kyb/checks/:kybId',
    scope: 'kyb:read',
    tags: ['kyb'],
    summary: 'A stored KYB verification, exactly as POST /api/v1/kyb/verify answered it',
    params: KybIdParams,
    idParam: 'kybId',
    response: KybVerifyResponse,
    notFound: 'No such KYB check',
    find: async (accountId, id) => (await platform.checks.find(accountId, id, 'kyb'))?.record,
  });
}
