import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../core.ts';
import { apiError } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { sha256Hex } from './bundle.ts';
import { BundleParams, BundleRequest, BundleResponse, ReportParams, binaryResponse } from './schemas.ts';
import type { Bundle, ReportsService } from './service.ts';

/** Sends bytes with a strong ETag; answers 304 when the client already has them. */
function sendBytes(request: FastifyRequest, reply: FastifyReply, bytes: Buffer, type: string, fileName: string, disposition: 'inline' | 'attachment') {
  const etag = `"${sha256Hex(bytes)}"`;
  reply.header('ETag', etag).header('Cache-Control', 'private, no-cache');
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type(type).header('Content-Disposition', `${disposition}; filename="${fileName}"`).send(bytes);
}

export async function reportRoutes(app: FastifyInstance, { service }: { platform: Platform; service: ReportsService }): Promise<void> {
  const { catalogue } = service;
  app.get<{ Params: ReportParams }>(
    '/reports/:code/:id.pdf',
    {
      config: { access: { scope: 'reports:read', metered: false } },
      schema: {
        tags: ['reports'],
        summary: "A check's PDF report (RPT-001 KYC, RPT-002 KYB, RPT-003 AML, RPT-KYA) or a bundle's cover sheet (RPT-016)",
        security: bearerSecurity,
        params: ReportParams,
        response: { 200: binaryResponse('application/pdf', 'The PDF; the same record always renders to the same bytes'), ...errorResponses(401, 403, 404, 501) },
      },
    },
    async (request, reply) => {
      const { code, id } = request.params;
      if (catalogue.isPlanned(code)) throw apiError('notImplemented', `${code} is planned but not produced yet`);
      if (!catalogue.isProduced(code)) throw apiError('notFound', 'No such report');
      const pdf = await service.renderCheckReport(principalOf(request).account.id, code, id);
      if (!pdf) throw apiError('notFound', 'No such report');
      return sendBytes(request, reply, pdf, 'application/pdf', `${code}-${id}.pdf`, 'inline');
    },
  );

  app.post<{ Body: BundleRequest }>(
    '/api/v1/reports/rpt-016',
    {
      config: { access: { scope: 'bundles:write', metered: true } },
      schema: {
        tags: ['reports'],
        summary: 'Register an RPT-016 regulatory evidence bundle for a check; it is generated in the background',
        security: bearerSecurity,
        body: BundleRequest,
        response: { 202: BundleResponse, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const result = await service.registerBundle(principalOf(request).account.id, request.body);
      if (result.ok) return reply.status(202).send(result.bundle);
      if ('notFound' in result) throw apiError('notFound', 'No such check');
      throw apiError('unsupportedReportTypes', 'includeTypes names report types the platform does not produce', { reasons: result.reasons });
    },
  );

  const bundleAccess = { scope: ['bundles:write', 'reports:read'] as const, metered: true };
  const requireBundle = async (request: FastifyRequest<{ Params: BundleParams }>): Promise<Bundle> => {
    const bundle = await service.findBundle(principalOf(request).account.id, request.params.bundleId);
    if (!bundle) throw apiError('notFound', 'No such bundle');
    return bundle;
  };

  app.get<{ Params: BundleParams }>(
    '/api/v1/bundles/:bundleId',
    {
      config: { access: bundleAccess },
      schema: {
        tags: ['reports'],
        summary: "A bundle's status: generating, ready (with the archive's size and SHA-256) or failed (with the reason)",
        security: bearerSecurity,
        params: BundleParams,
        response: { 200: BundleResponse, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    requireBundle,
  );

  app.get<{ Params: BundleParams }>(
    '/api/v1/bundles/:bundleId.zip',
    {
      config: { access: bundleAccess },
      schema: {
        tags: ['reports'],
        summary: 'The bundle archive: 200 when ready, 202 with Retry-After while generating; it never changes once ready',
        security: bearerSecurity,
        params: BundleParams,
        response: {
          200: binaryResponse('application/zip', '<bundle_id>.zip: report.pdf, reports/…, evidence.json, manifest.json'),
          202: BundleResponse,
          ...errorResponses(...API_ERRORS, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const bundle = await requireBundle(request);
      if (bundle.status === 'generating') return reply.status(202).header('Retry-After', 1).send(bundle);
      if (bundle.status === 'failed') {
        throw apiError('bundleFailed', 'The bundle could not be generated', { failureReason: bundle.failureReason });
      }
      const archive = await service.loadArchive(principalOf(request).account.id, bundle.bundleId);
      if (!archive) throw apiError('notFound', 'No such bundle');
      return sendBytes(request, reply, archive, 'application/zip', `${bundle.bundleId}.zip`, 'attachment');
    },
  );
}
