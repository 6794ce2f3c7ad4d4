import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { SERVICE_VERSION } from './bootstrap.ts';
import type { AppContext } from './core.ts';
import { newId } from './ids.ts';
import { logDestination } from './log-destination.ts';
import { requestLogger } from './request-log.ts';
import { frameworkErrors, registerErrorHandling } from './http/errors.ts';
import { registerGate } from './http/gate.ts';
import { originPath } from './http/route-path.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { requestMetrics } from './http/metrics.ts';
import { ErrorBody } from './http/schemas.ts';
import { MODULES } from './domains.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's path parameters are secret (a set-up token): its requests are logged under the route pattern. */
    secretPath?: boolean;
  }
  interface FastifyInstance {
    /** "METHOD /path" of every public route, for checking the OpenAPI document against what is served. */
    routeTable: string[];
  }
}

/** A request as the log sees it: its target and, once routed, the route it matched. */
interface LoggedRequest {
  url: string;
  routeOptions?: { url?: string; config?: { secretPath?: boolean } };
}

const SETUP_PATH = /^\/dashboard\/setup\/[^/]+/;

/**
 * The path a request is logged under: never its query, and never a secret path segment. A route that declares
 * `secretPath` (the set-up link's token) is logged by its pattern, however its target was written (`/%64ashboard/…`,
 * `http://x/dashboard/…` reach the same route); an unmatched target that decodes to a set-up link is redacted too.
 */
export function loggablePath(request: LoggedRequest): string {
  const route = request.routeOptions;
  if (route?.url !== undefined && route.config?.secretPath) return route.url;
  const { url } = request;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (route?.url === undefined) {
    const decoded = originPath(url);
    if (SETUP_PATH.test(decoded)) return decoded.replace(SETUP_PATH, '/dashboard/setup/:token');
  }
  return path;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Fastify gives every request a child logger bound to its reqId. pino builds one per request (bindings serialised,
 * levels set up) although a request almost never logs through it: its one line goes through the root logger with
 * the reqId in it. This one makes the pino child only when something logs through `request.log` (an error, a warning
 * of Fastify's), so those lines carry the reqId as before.
 */
interface RequestLogger extends Pick<FastifyBaseLogger, (typeof LOG_LEVELS)[number]> {}
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: pino.Bindings;
  readonly #options: pino.ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: pino.Bindings, options: pino.ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The pino child, made on first use. */
  get made(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}
for (const level of LOG_LEVELS) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]) {
    (this.made[level] as (...args: unknown[]) => void)(...args);
  } as FastifyBaseLogger['info'];
}

export interface AppOptions {
  /** pino options, or false to stay silent (tests); `stream` receives the log lines instead of stdout. */
  logger?: boolean | { level: string; stream?: pino.DestinationStream };
}

/** The HTTP application over an opened context; no listening, so tests can `inject`. */
export async function buildApp(context: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = context;
  const logging = options.logger !== false;
  const app = Fastify({
    logger: logging
      ? {
          level: typeof options.logger === 'object' ? options.logger.level : config.logLevel,
          stream: (typeof options.logger === 'object' && options.logger.stream) || logDestination(),
          // Should Fastify itself log a request or reply (an aborted request), only these fields of it.
          serializers: {
            req: (request: LoggedRequest & { method: string; id: string }) => ({ method: request.method, url: loggablePath(request), id: request.id }),
            res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
          },
        }
      : false,
    // One line per request, written when it is answered (Fastify's own logging writes two).
    logController: new LogController({ disableRequestLogging: true }),
    ...(logging ? { childLoggerFactory: (logger: FastifyBaseLogger, bindings: pino.Bindings, options: pino.ChildLoggerOptions) => new RequestLogger(logger, bindings, options) } : {}),
    genReqId: () => newId('req'),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    frameworkErrors,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routeTable: string[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide || route.url.startsWith('/docs');
    if (!hidden) for (const method of methods) if (method !== 'HEAD') routeTable.push(`${method} ${route.url}`);
  });
  app.decorate('routeTable', routeTable);

  // On close, answers still in flight tell their client to hang up, so keep-alive sockets do not hold the drain open.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // Callback-style hooks on every request's path: no promise per request.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.addSchema(ErrorBody);
  registerErrorHandling(app);
  // One hook when a request is answered: its metrics and its log line. Only the method, path and status are logged:
  // never headers (credentials), bodies (images, prompts), query strings (a searched name) or a set-up link's token.
  const countRequest = requestMetrics(context.metrics);
  const logRequest = logging ? requestLogger(app.log as pino.Logger) : undefined;
  app.addHook('onResponse', (request, reply, done) => {
    const elapsed = reply.elapsedTime;
    countRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, elapsed / 1000);
    logRequest?.({ reqId: request.id, method: request.method, url: loggablePath(request), statusCode: reply.statusCode, ms: Math.round(elapsed) });
    done();
  });
  registerGate(app, { ...context, idempotency: context.services.idempotency });
  registerIdempotency(app, context.services.idempotency);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'kyx',
        version: SERVICE_VERSION,
        description: 'KYC, KYB, AML and KYA verification, PDF reports and RPT-016 evidence bundles.',
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (svc_test_sk_…, svc_live_sk_…) or an access token from POST /auth/token' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const services = context.services as unknown as Record<string, unknown>;
  for (const module of MODULES) {
    const { routes } = module;
    if (routes) await app.register(async (scope) => routes(scope, { platform: context, service: services[module.name] }));
  }

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
