import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { DomainError } from '../errors.ts';
import { apiError } from '../http/errors.ts';
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
  MonitoredSubjectDetail,
  MonitoredSubjectList,
  SubjectListQuery,
  SubjectParams,
} from './schemas.ts';
import type { ScreeningQuery } from './screen.ts';

function validOrThrow<T>(validation: Validation<T>): T {
  if (!validation.ok) throw DomainError.invalid(validation.errors);
  return validation.value;
}

export async function amlRoutes(app: FastifyInstance, { platform, service: aml }: { platform: Platform; service: AmlService }): Promise<void> {
  function screenAndStore(request: Parameters<typeof principalOf>[0], queries: ScreeningQuery[], monitor: boolean[]): Promise<AmlScreeningRecord[]> {
    const principal = principalOf(request);
    return aml.screenAndStore({ accountId: principal.account.id, keyEnvironment: principal.environment, monitor }, queries);
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
      const [record] = await screenAndStore(request, [query], [request.body.monitor === true]);
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
      return { results: await screenAndStore(request, queries, request.body.queries.map((query) => query.monitor === true)) };
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

  app.get<{ Querystring: SubjectListQuery }>(
    '/api/v1/aml/monitoring/subjects',
    {
      config: { access: { scope: 'aml:read', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'Names under ongoing monitoring (screened with monitor: true), newest first',
        security: bearerSecurity,
        querystring: SubjectListQuery,
        response: { 200: MonitoredSubjectList, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request) => ({ data: await aml.monitoring.list(principalOf(request).account.id, Number(request.query.limit ?? 20)) }),
  );

  app.get<{ Params: SubjectParams }>(
    '/api/v1/aml/monitoring/subjects/:subjectId',
    {
      config: { access: { scope: 'aml:read', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'A monitored name: what it matches now and every change the lists brought',
        security: bearerSecurity,
        params: SubjectParams,
        response: { 200: MonitoredSubjectDetail, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request) => {
      const subject = await aml.monitoring.find(principalOf(request).account.id, request.params.subjectId);
      if (!subject) throw apiError('notFound', 'No such monitored subject');
      return subject;
    },
  );

  app.delete<{ Params: SubjectParams }>(
    '/api/v1/aml/monitoring/subjects/:subjectId',
    {
      config: { access: { scope: 'aml:screen', metered: true } },
      schema: {
        tags: ['aml'],
        summary: 'Stop monitoring a name (its history is kept)',
        security: bearerSecurity,
        params: SubjectParams,
        response: { 204: { type: 'null' }, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      if (!(await aml.monitoring.stop(principalOf(request).account.id, request.params.subjectId))) throw apiError('notFound', 'No such monitored subject');
      return reply.status(204).send();
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
