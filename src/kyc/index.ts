// Public surface of the KYC engine for the HTTP layer and reports.
export { createKycEngine, type KycEngine, type KycEngineOptions } from './engine.ts';
export {
  decodeImage,
  decodeBase64Image,
  sniffImageFormat,
  ImageIntakeError,
  DEFAULT_IMAGE_LIMITS,
  type DecodedImage,
  type ImageField,
  type ImageFormat,
  type ImageIntakeErrorCode,
  type ImageLimits,
} from './intake.ts';
export {
  decideKyc,
  REASONS,
  THRESHOLDS,
  type AmlOutcome,
  type CheckName,
  type CheckResult,
  type KycCheck,
  type KycDecision,
  type KycDecisionInput,
  type KycStatus,
  type ReasonCode,
  type RiskLevel,
} from './decision.ts';
export { SANDBOX_SCENARIOS, findSandboxScenario, type SandboxScenario } from './scenarios.ts';
export { differenceHash, hammingDistance, SAME_IMAGE_MAX_DISTANCE } from './hash.ts';
export { DOCUMENT_TYPES, type AnalyseInput, type DocumentType, type KycMetadata, type KycSignals } from './types.ts';
export type { MrzReading } from './mrz.ts';
