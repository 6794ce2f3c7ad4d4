import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { Jwks, ValidateKeyResponse, ValidateResponse } from './schemas.ts';

export async function accountRoutes(app: FastifyInstance, { platform }: { platform: Platform }): Promise<void> {
  app.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['auth'],
        summary: 'Public keys that verify access tokens and KYA certificates',
        response: { 200: Jwks },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      return platform.keyring.jwks();
    },
  );

  app.post(
    '/api/auth/validate',
    {
      config: { access: { scope: null, metered: false } },
      schema: {
        tags: ['auth'],
        summary: 'Validate a credential and return its permissions',
        security: bearerSecurity,
        response: { 200: ValidateResponse, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request): Promise<ValidateResponse> => {
      const principal = principalOf(request);
      return {
        valid: true,
        accountId: principal.account.id,
        keyId: principal.keyId,
        environment: principal.environment,
        permissions: principal.scopes,
      };
    },
  );

  app.get(
    '/api/v1/validate-key',
    {
      config: { access: { scope: null, metered: true } },
      schema: {
        tags: ['auth'],
        summary: 'Key, plan, limits and usage of the calling credential',
        security: bearerSecurity,
        response: { 200: ValidateKeyResponse, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request): Promise<ValidateKeyResponse> => {
      const principal = principalOf(request);
      const meters = await platform.meters.read(principal.account.id, new Date());
      return {
        valid: true,
        keyId: principal.keyId,
        accountId: principal.account.id,
        environment: principal.environment,
        plan: principal.plan,
        permissions: principal.scopes,
        limits: principal.limits,
        usage: { today: request.usage?.today ?? 0, thisMonth: request.usage?.thisMonth ?? 0, ...meters },
      };
    },
  );
}
