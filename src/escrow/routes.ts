import type { FastifyInstance } from 'fastify';
import type { Platform } from '../core.ts';
import { apiError } from '../http/errors.ts';
import { recordRoute } from '../http/record-route.ts';
import { bearerSecurity, errorResponses } from '../http/schemas.ts';
import { EscrowParams, EscrowResponse } from './schemas.ts';
import type { EscrowService } from './service.ts';

export async function escrowRoutes(app: FastifyInstance, { service: escrow }: { platform: Platform; service: EscrowService }): Promise<void> {
  recordRoute<EscrowParams>(app, {
    url: '/api/v1/escrow/:escrowId',
    scope: 'escrow:read',
    tags: ['escrow'],
    summary: 'An escrow created before the withdrawal of escrow creation',
    params: EscrowParams,
    idParam: 'escrowId',
    response: EscrowResponse,
    notFound: 'No such escrow',
    find: (accountId, escrowId) => escrow.find(accountId, escrowId),
  });

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
