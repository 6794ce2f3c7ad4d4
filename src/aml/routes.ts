import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { type FieldError, apiError, invalidRequest } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { type AmlScreeningRecord, ListsUnavailableError } from './service.ts';
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

/** The engine names fields by JSON Pointer (`/queries/0/name`); the API by `body/queries/0/name`. */
function bodyPaths(errors: FieldError[]): FieldError[] {
  return errors.map(({ path, message }) => ({ path: path === '/' ? 'body' : `body${path}`, message }));
}

function validOrThrow<T>(validation: Validation<T>): T {
  if (!validation.ok) throw invalidRequest(bodyPaths(validation.errors));
  return validation.value;
}

export async function amlRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const aml = context.services.aml;

  async function screenAndStore(request: Parameters<typeof principalOf>[0], queries: ScreeningQuery[]): Promise<AmlScreeningRecord[]> {
    const principal = principalOf(request);
    try {
      return await aml.screenAndStore({ accountId: principal.account.id, keyEnvironment: principal.environment }, queries);
    } catch (error) {
      if (error instanceof ListsUnavailableError) throw apiError('listsUnavailable', 'No sanctions list is loaded: names cannot be screened');
      throw error;
    }
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

  app.get<{ Params: ScreeningParams }>(
    '/api/v1/aml/screenings/:id',
    {
      config: { access: { scope: 'aml:read', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'A stored screening',
        security: bearerSecurity,
        params: ScreeningParams,
        response: { 200: ScreeningRecord, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request) => {
      const found = await aml.find(principalOf(request).account.id, request.params.id);
      if (!found) throw apiError('notFound', 'No such screening');
      return found.record;
    },
  );

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
