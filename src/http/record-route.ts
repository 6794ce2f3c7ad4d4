import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { Scope } from '../accounts/scopes.ts';
import { apiError } from './errors.ts';
import { principalOf } from './gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from './schemas.ts';

/**
 * `GET <url>`: one stored record of the caller's tenant by the id in the path, exactly as stored; another
 * tenant's id is a 404, like an unknown one.
 */
export function recordRoute<Params extends Record<string, string>>(
  app: FastifyInstance,
  route: {
    url: string;
    scope: Scope;
    tags: string[];
    summary: string;
    params: TSchema;
    /** The path parameter that holds the id. */
    idParam: keyof Params & string;
    response: TSchema;
    /** What the 404 says: "No such screening". */
    notFound: string;
    find(accountId: string, id: string): Promise<unknown>;
  },
): void {
  app.get<{ Params: Params }>(
    route.url,
    {
      config: { access: { scope: route.scope, metered: true } },
      schema: {
        tags: route.tags,
        summary: route.summary,
        security: bearerSecurity,
        params: route.params,
        response: { 200: route.response, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request) => {
      const found = await route.find(principalOf(request).account.id, (request.params as Record<string, string>)[route.idParam]);
      if (found === undefined) throw apiError('notFound', route.notFound);
      return found;
    },
  );
}
