import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { apiError } from '../http/errors.ts';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { EscrowParams, EscrowResponse } from './schemas.ts';
import { type Escrow, findEscrow } from './service.ts';

export async function escrowRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  app.get<{ Params: EscrowParams }>(
    '/api/v1/escrow/:escrowId',
    {
      config: { access: { scope: 'escrow:read', metered: true } },
      schema: {
        tags: ['escrow'],
        summary: 'An escrow created before the withdrawal of escrow creation',
        security: bearerSecurity,
        params: EscrowParams,
        response: { 200: EscrowResponse, ...errorResponses(...API_ERRORS, 404) },
      },
    },
    async (request): Promise<Escrow> => {
      const escrow = await findEscrow(context.storage.db, principalOf(request).account.id, request.params.escrowId);
      if (!escrow) throw apiError('notFound', 'No such escrow');
      return escrow;
    },
  );

  // Withdrawn: answers 410 to any valid credential and any body, parseable or not, and creates nothing.
  await app.register(async (withdrawn) => {
    withdrawn.removeAllContentTypeParsers();
    withdrawn.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    withdrawn.post(
      '/api/v1/escrow/initiate',
      {
        config: { access: { scope: null, metered: true } },
        schema: {
          tags: ['escrow'],
          summary: 'Withdrawn: always 410 escrow_api_unavailable (escrows are opened from the dashboard)',
          security: bearerSecurity,
          response: errorResponses(401, 410, 429),
        },
      },
      async () => {
        throw apiError('escrowApiUnavailable', 'Escrow creation through the API is withdrawn; open escrows from the dashboard');
      },
    );
  });
}
