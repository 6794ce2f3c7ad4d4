import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/gate.ts';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { DecisionParams, DecisionRequest, DecisionResponse } from './schemas.ts';
import type { ReviewsService } from './service.ts';

export async function reviewRoutes(app: FastifyInstance, { service }: { service: ReviewsService }): Promise<void> {
  app.post<{ Params: DecisionParams; Body: DecisionRequest }>(
    '/api/v1/checks/:checkId/decision',
    {
      config: { access: { scope: 'reviews:write', metered: true } },
      schema: {
        tags: ['reviews'],
        summary: 'Decide a check whose outcome awaits a person (KYC/KYB/KYA review, AML potential_match), once',
        description:
          'The check keeps its automated outcome and carries the decision as `review` from then on: in its GET, its report and ' +
          'its evidence bundle. A check that does not await a decision, or was already decided, answers 409 `conflict`.',
        security: bearerSecurity,
        params: DecisionParams,
        body: DecisionRequest,
        response: { 200: DecisionResponse, ...errorResponses(...API_ERRORS, 404, 409) },
      },
    },
    async (request): Promise<DecisionResponse> => {
      const principal = principalOf(request);
      const decided = await service.decide({
        accountId: principal.account.id,
        checkId: request.params.checkId,
        decision: request.body.decision,
        reason: request.body.reason,
        decidedBy: principal.keyId,
      });
      return { checkId: decided.id, kind: decided.kind, status: decided.summary.status, review: decided.record.review as DecisionResponse['review'] };
    },
  );
}
