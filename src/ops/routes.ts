import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../core.ts';
import { apiError } from '../http/errors.ts';

const Health = Type.Object({ status: Type.String() });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Array(
    Type.Object({
      name: Type.String(),
      ok: Type.Boolean(),
      error: Type.Optional(Type.String()),
      warnings: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  requestId: Type.Optional(Type.String()),
});

export async function opsRoutes(app: FastifyInstance, { platform }: { platform: Platform }): Promise<void> {
  // Prometheus scrapes with the configured token; without one configured, the route is not there at all.
  const { metricsToken } = platform.config;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const sent = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${metricsToken ?? ''}`);
    if (!metricsToken) throw apiError('notFound', 'Metrics are off (set KYX_METRICS_TOKEN)');
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw apiError('unauthorized', 'Send the metrics token as Authorization: Bearer <token>');
    return reply.type(platform.metrics.contentType).send(await platform.metrics.metrics());
  });

  app.get('/healthz', { schema: { tags: ['ops'], summary: 'The process is up', response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    { schema: { tags: ['ops'], summary: 'Storage (and Redis, lists…) answer', response: { 200: Readiness, 503: Readiness } } },
    async (request, reply) => {
      const checks = await Promise.all(
        platform.readiness.map(async ({ name, check, warnings }) => {
          const noted = warnings?.() ?? [];
          const extra = noted.length ? { warnings: noted } : {};
          try {
            await check();
            return { name, ok: true, ...extra };
          } catch (error) {
            return { name, ok: false, error: error instanceof Error ? error.message : String(error), ...extra };
          }
        }),
      );
      const ready = checks.every((c) => c.ok);
      if (ready) return { status: 'ready' as const, checks };
      return reply.status(503).send({
        status: 'not_ready' as const,
        checks,
        code: 'not_ready',
        message: 'A dependency does not answer',
        requestId: request.id,
      });
    },
  );
}
