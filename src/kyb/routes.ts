import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../context.ts';
import { apiError, invalidRequest } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { KybVerifyRequest, KybVerifyResponse } from './schemas.ts';
import { KybRequestInvalidError } from './verify.ts';

const KybIdParams = Type.Object({ kybId: Type.String({ maxLength: 64, description: 'kyb_…' }) });

export async function kybRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const service = context.services.kyb;

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
      try {
        return await service.verify({ accountId: principal.account.id, keyEnvironment: principal.environment }, request.body);
      } catch (error) {
        if (error instanceof KybRequestInvalidError) {
          throw invalidRequest(error.errors.map(({ path, message }) => ({ path: `body${path}`, message })));
        }
        throw error;
      }
    },
  );

  app.get<{ Params: { kybId: string } }>(
    '/api/v1/kyb/checks/:kybId',
    {
      config: { access: { scope: 'kyb:read', metered: true } },
      schema: {
        tags: ['kyb'],
        summary: 'A stored KYB verification, exactly as POST /api/v1/kyb/verify answered it',
        security: bearerSecurity,
        params: KybIdParams,
        response: { 200: KybVerifyResponse, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request): Promise<KybVerifyResponse> => {
      const stored = await service.find(principalOf(request).account.id, request.params.kybId);
      if (!stored) throw apiError('notFound', 'No such KYB check');
      return stored.record as KybVerifyResponse;
    },
  );
}
