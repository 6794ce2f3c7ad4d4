import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { API_ERRORS, bearerSecurity, errorResponses } from '../http/schemas.ts';
import { SANDBOX_SCENARIOS as kycSandboxScenarios } from '../kyc/scenarios.ts';
import { KYB_SANDBOX_NOT_FOUND_NOTE, kybSandboxScenarios } from '../kyb/sandbox.ts';
import { KybSandboxScenario } from '../kyb/schemas.ts';

const KycSandboxScenario = Type.Object({
  reference: Type.String({ description: 'Put in metadata.reference (optionally followed by ":" and your own reference)' }),
  description: Type.String(),
  effect: Type.Object({ check: Type.String(), reason: Type.String() }),
});

const SandboxScenarios = Type.Object({
  kyc: Type.Array(KycSandboxScenario),
  kyb: Type.Array(KybSandboxScenario),
});
type SandboxScenarios = Static<typeof SandboxScenarios>;

/** Each domain contributes its own catalogue; the answer is the same for every tenant. */
const catalogue: SandboxScenarios = { kyc: [...kycSandboxScenarios], kyb: kybSandboxScenarios };

export async function sandboxRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/v1/sandbox/scenarios',
    {
      config: { access: { scope: null, metered: true } },
      schema: {
        tags: ['sandbox'],
        summary: 'Magic values that make test-key checks take each review and failure path',
        description: `KYC: a reference in metadata.reference. KYB: a complete request body per scenario. ${KYB_SANDBOX_NOT_FOUND_NOTE}`,
        security: bearerSecurity,
        response: { 200: SandboxScenarios, ...errorResponses(...API_ERRORS) },
      },
    },
    async (): Promise<SandboxScenarios> => catalogue,
  );
}
