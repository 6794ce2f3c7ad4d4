import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { DomainError } from '../errors.ts';
import { principalOf } from '../http/gate.ts';
import { recordRoute } from '../http/record-route.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import type { AmlScreeningRecord, AmlService } from './service.ts';
import { validateScreeningBatch, validateScreeningQuery, type Validation } from './validate.ts';
import {
  ListsResponse,
  ScreeningBatchBody,
  ScreeningBatchResponse,
  ScreeningParams,
  ScreeningQueryBody,
  ScreeningRecord,
} from './schemas.ts';
import type { ScreeningQuery } from './screen.ts';

function validOrThrow<T>(validation: Validation<T>): T {
  if (!validation.ok) throw DomainError.invalid(validation.errors);
  return validation.value;
}

export async function amlRoutes(app: FastifyInstance, { platform, service: aml }: { platform: Platform; service: AmlService }): Promise<void> {
  function screenAndStore(request: Parameters<typeof principalOf>[0], queries: ScreeningQuery[]): Promise<AmlScreeningRecord[]> {
    const principal = principalOf(request);
    return aml.screenAndStore({ accountId: principal.account.id, keyEnvironment: principal.environment }, queries);
  }

  app.post<{ Body: ScreeningQueryBody }>(
    '/api/v1/aml/screen',
    {
      config: { access: { scope: 'aml:screen', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'Screen a person or organisation against the loaded sanctions lists (stored with the list versions used)',
        security: bearerSecurity,
        body: ScreeningQueryBody,
        response: { 200: ScreeningRecord, ...errorResponses(...API_ERRORS, 503) },
      },
    },
    async (request): Promise<AmlScreeningRecord> => {
      const query = validOrThrow(validateScreeningQuery(request.body));
      const [record] = await screenAndStore(request, [query]);
      return record;
    },
  );

  app.post<{ Body: ScreeningBatchBody }>(
    '/api/v1/aml/screen/batch',
    {
      config: { access: { scope: 'aml:screen', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'Screen up to 100 names at once; each is stored as its own screening (one API call, one meter unit per live screening)',
        security: bearerSecurity,
        body: ScreeningBatchBody,
        response: { 200: ScreeningBatchResponse, ...errorResponses(...API_ERRORS, 503) },
      },
    },
    async (request) => {
      const queries = validOrThrow(validateScreeningBatch(request.body));
      return { results: await screenAndStore(request, queries) };
    },
  );

  recordRoute<ScreeningParams>(app, {
    url: '/api/v1/aml/screenings/:id',
    scope: 'aml:read',
    tags: ['aml'],
    summary: 'A stored screening',
    params: ScreeningParams,
    idParam: 'id',
    response: ScreeningRecord,
    notFound: 'No such screening',
    find: async (accountId, id) => (await platform.checks.find(accountId, id, 'aml'))?.record,
  });

  app.get(
    '/api/v1/aml/lists',
    {
      config: { access: { scope: 'aml:read', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'The lists screening uses: source, version date, entity count and the last error of each',
        security: bearerSecurity,
        response: { 200: ListsResponse, ...errorResponses(...API_ERRORS) },
      },
    },
    async () => aml.publicStatus(),
  );
}
