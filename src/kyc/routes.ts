import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { invalidRequest } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { recordRoute } from '../http/record-route.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import {
  DEFAULT_PAGE_SIZE,
  KycCheckList,
  KycCheckListQuery,
  KycCheckParams,
  KycCheckResult,
  KycVerifyRequest,
  MAX_PAGE_SIZE,
} from './schemas.ts';
import type { KycService } from './service.ts';

export async function kycRoutes(app: FastifyInstance, { platform, service }: { platform: Platform; service: KycService }): Promise<void> {
  app.post<{ Body: KycVerifyRequest }>(
    '/api/v1/kyc/verify',
    {
      config: { access: { scope: 'kyc:write', metered: true } },
      schema: {
        tags: ['kyc'],
        summary: 'Verify a person: read the document, match the selfie to it and screen the name',
        description:
          'Both images are checked for test keys as for live keys; the name is screened while amlScreening is true (default). ' +
          'A listed name never passes (riskLevel high); with no sanctions list loaded the AML check is review. ' +
          'Test keys accept sandbox scenario values in metadata.reference (GET /api/v1/sandbox/scenarios). ' +
          'An image that is not a decodable JPEG, PNG or WebP is a 400 naming the field.',
        security: bearerSecurity,
        body: KycVerifyRequest,
        response: { 200: KycCheckResult, ...errorResponses(...API_ERRORS, 413, 503) },
      },
    },
    async (request): Promise<KycCheckResult> => {
      const principal = principalOf(request);
      return service.verify({ accountId: principal.account.id, keyEnvironment: principal.environment }, request.body);
    },
  );

  recordRoute<{ checkId: string }>(app, {
    url: '/api/v1/kyc/checks/:checkId',
    scope: 'kyc:read',
    tags: ['kyc'],
    summary: 'A stored KYC check, exactly as POST /api/v1/kyc/verify answered it',
    params: KycCheckParams,
    idParam: 'checkId',
    response: KycCheckResult,
    notFound: 'No such KYC check',
    find: async (accountId, id) => (await platform.checks.find(accountId, id, 'kyc'))?.record,
  });

  app.get<{ Querystring: KycCheckListQuery }>(
    '/api/v1/kyc/checks',
    {
      config: { access: { scope: 'kyc:read', metered: true } },
      schema: {
        tags: ['kyc'],
        summary: "The tenant's KYC checks, newest first, a page at a time",
        security: bearerSecurity,
        querystring: KycCheckListQuery,
        response: { 200: KycCheckList, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request): Promise<KycCheckList> => {
      const limit = request.query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(request.query.limit);
      if (limit > MAX_PAGE_SIZE) throw invalidRequest([{ path: 'querystring/limit', message: `must be at most ${MAX_PAGE_SIZE}` }]);
      return service.list(principalOf(request).account.id, { limit, cursor: request.query.cursor });
    },
  );
}
