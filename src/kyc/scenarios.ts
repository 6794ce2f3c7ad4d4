// Sandbox scenario catalogue (GET /api/v1/sandbox/scenarios). With a test key, a magic value in
// metadata.reference adds one finding to one check, so integrations can exercise review and failure paths with the
// specimen images. A scenario only ever adds a finding: it cannot lift a failed check or an AML hit to a pass, and
// the real image, document, face and AML checks still run underneath it.
import type { CheckName, ReasonCode } from './decision.ts';

export interface SandboxScenario {
  /** metadata.reference equal to this, or starting with it followed by ":" (e.g. "kyx_sandbox_review:order-42"). */
  reference: string;
  description: string;
  effect: { check: CheckName; reason: ReasonCode };
}

export const SANDBOX_SCENARIOS: readonly SandboxScenario[] = [
  {
    reference: 'kyx_sandbox_review',
    description: 'Forces status review (a manual-review queue test).',
    effect: { check: 'sandbox_scenario', reason: 'sandbox_forced_review' },
  },
  {
    reference: 'kyx_sandbox_failed',
    description: 'Forces status failed without naming a cause.',
    effect: { check: 'sandbox_scenario', reason: 'sandbox_forced_failure' },
  },
  {
    reference: 'kyx_sandbox_document_expired',
    description: 'The document check fails as if the document had expired.',
    effect: { check: 'document', reason: 'document_expired' },
  },
  {
    reference: 'kyx_sandbox_name_mismatch',
    description: 'The document check fails as if the name on the document differed from metadata.',
    effect: { check: 'document', reason: 'name_mismatch' },
  },
  {
    reference: 'kyx_sandbox_face_mismatch',
    description: 'The face match fails as if the selfie showed someone else.',
    effect: { check: 'face_match', reason: 'face_mismatch' },
  },
  {
    reference: 'kyx_sandbox_selfie_blurred',
    description: 'The selfie check fails as if the selfie were blurred.',
    effect: { check: 'selfie', reason: 'image_blurred' },
  },
  {
    reference: 'kyx_sandbox_aml_potential_match',
    description: 'The AML check reports a potential match: status review, riskLevel high.',
    effect: { check: 'aml', reason: 'aml_potential_match' },
  },
  {
    reference: 'kyx_sandbox_aml_unavailable',
    description: 'The AML check reports the lists as unavailable: status review.',
    effect: { check: 'aml', reason: 'aml_lists_unavailable' },
  },
];

export function findSandboxScenario(reference: string | undefined | null): SandboxScenario | null {
  if (!reference) return null;
  return SANDBOX_SCENARIOS.find((s) => reference === s.reference || reference.startsWith(`${s.reference}:`)) ?? null;
}
