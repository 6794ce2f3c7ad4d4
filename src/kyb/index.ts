// The KYB engine's public surface for the HTTP layer and reports.
export { verifyBusiness, KybRequestInvalidError, type VerifyBusinessOptions } from './verify.ts';
export { kybConfig, type KybConfig, type KybSourcesConfig } from './config.ts';
export { createLiveSources } from './sources/live.ts';
export { createSandboxSources, kybSandboxScenarios, KYB_SANDBOX_NOT_FOUND_NOTE, type KybSandboxScenario } from './sandbox.ts';
export {
  validateKybRequest,
  leiCheckProblem,
  parseVatNumber,
  normaliseUkCompanyNumber,
  normaliseRegistrationNumber,
  isCountryCode,
  type NormalisedKybRequest,
} from './validation.ts';
export type * from './types.ts';
