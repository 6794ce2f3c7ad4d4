import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { apiError, invalidRequest } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { recordRoute } from '../http/record-route.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import {
  PublishRequest,
  PublishedWorkflow,
  Run,
  RunList,
  RunListQuery,
  RunParams,
  RunRequest,
  RunStarted,
  WorkflowList,
  WorkflowParams,
  WorkflowQuery,
} from './schemas.ts';
import type { WorkflowsService } from './service.ts';

const MAX_RUNS_PAGE = 100;

export async function workflowRoutes(app: FastifyInstance, { service }: { platform: Platform; service: WorkflowsService }): Promise<void> {
  app.post<{ Body: PublishRequest }>(
    '/api/v1/workflows',
    {
      config: { access: { scope: 'workflows:write', metered: true } },
      schema: {
        tags: ['workflows'],
        summary: 'Publish a new version of a named workflow (versions are immutable)',
        description:
          'A 400 names the path of what is wrong: an unknown step kind, a reference to a step or an output that does not exist, ' +
          'steps that depend on each other in a cycle.',
        security: bearerSecurity,
        body: PublishRequest,
        response: { 201: PublishedWorkflow, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request, reply) => {
      const published = await service.publish(principalOf(request).account.id, request.body.name, request.body.definition);
      return reply.status(201).send(published);
    },
  );

  app.get(
    '/api/v1/workflows',
    {
      config: { access: { scope: 'workflows:read', metered: true } },
      schema: {
        tags: ['workflows'],
        summary: 'The built-in workflows and the latest version of each of yours',
        security: bearerSecurity,
        response: { 200: WorkflowList, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request) => ({ data: await service.list(principalOf(request).account.id) }),
  );

  app.get<{ Querystring: RunListQuery }>(
    '/api/v1/workflows/runs',
    {
      config: { access: { scope: 'workflows:read', metered: true } },
      schema: {
        tags: ['workflows'],
        summary: 'Your workflow runs, newest first; with checkId, the run that created that check',
        security: bearerSecurity,
        querystring: RunListQuery,
        response: { 200: RunList, ...errorResponses(...API_ERRORS) },
      },
    },
    async (request) => {
      const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
      if (limit > MAX_RUNS_PAGE) throw invalidRequest([{ path: 'querystring/limit', message: `must be at most ${MAX_RUNS_PAGE}` }]);
      return { data: await service.listRuns(principalOf(request).account.id, { limit, checkId: request.query.checkId }) };
    },
  );

  recordRoute<{ runId: string }>(app, {
    url: '/api/v1/workflows/runs/:runId',
    scope: 'workflows:read',
    tags: ['workflows'],
    summary: "A workflow run: its status, decision and each step's check",
    params: RunParams,
    idParam: 'runId',
    response: Run,
    notFound: 'No such workflow run',
    find: (accountId, id) => service.findRun(accountId, id),
  });

  app.get<{ Params: WorkflowParams; Querystring: WorkflowQuery }>(
    '/api/v1/workflows/:name',
    {
      config: { access: { scope: 'workflows:read', metered: true } },
      schema: {
        tags: ['workflows'],
        summary: 'A workflow: its latest version, or the version asked for',
        security: bearerSecurity,
        params: WorkflowParams,
        querystring: WorkflowQuery,
        response: { 200: PublishedWorkflow, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request) => {
      const version = request.query.version === undefined ? undefined : Number(request.query.version);
      const found = await service.find(principalOf(request).account.id, request.params.name, version);
      if (!found) throw apiError('notFound', 'No such workflow or version');
      return found;
    },
  );

  app.post<{ Params: WorkflowParams; Body: RunRequest }>(
    '/api/v1/workflows/:name/runs',
    {
      config: { access: { scope: 'workflows:run', metered: true } },
      schema: {
        tags: ['workflows'],
        summary: "Start a run of a workflow's latest version; its steps run in the background",
        description:
          'Each step creates an ordinary check of its kind, stored, reportable and billed as if its endpoint had been called with this key; ' +
          'test keys run on the sandbox fixtures. An input the first steps would refuse is a 400 naming the field under body/input.',
        security: bearerSecurity,
        params: WorkflowParams,
        body: RunRequest,
        response: { 202: RunStarted, ...errorResponses(...API_ERRORS, 404, 413) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const run = await service.startRun({ accountId: principal.account.id, keyEnvironment: principal.environment }, request.params.name, request.body.input);
      if (!run) throw apiError('notFound', 'No such workflow');
      return reply.status(202).send({ runId: run.runId, workflow: run.workflow, version: run.version, status: run.status });
    },
  );
}
