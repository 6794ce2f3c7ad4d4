/**
 * KYA screening: the decision table of the specification (KYA verify rules 1–11) as a pure function of what the
 * judges found, and `screenPrompt`, which runs the judges and applies it.
 */
import { countCharacters, DEFAULT_KYA_THRESHOLDS, MAX_PROMPT_CHARACTERS, type KyaThresholds } from './config.ts';
import type { InjectionModel, SyncInjectionModel } from './model.ts';
import { normalisePrompt } from './normalise.ts';
import { matchSignatures, type SignatureId, type SignatureResult } from './signatures.ts';

export type KyaEnvironment = 'test' | 'live';
export type ScreeningOutcome = 'passed_screening' | 'review' | 'blocked' | 'not_screened';
export type KyaAction = 'allow' | 'review' | 'block' | 'identity_only';
export type KyaInputError = 'empty_prompt' | 'prompt_too_long';

/** Names the signature engine when no model judged (test keys, or no model deployed). */
export const SIGNATURE_ENGINE = 'kyx-kya-signatures/1.0.0';

export interface Screening {
  outcome: ScreeningOutcome;
  /** Engine and version that screened the prompt; null when nothing screened (no prompt). */
  engine: string | null;
  modelVerdict: boolean;
  /** The model's probability that the prompt is an injection; null when no model screened it. */
  injectionScore: number | null;
  signatures: SignatureId[];
}

export interface KyaDecision {
  outcome: ScreeningOutcome;
  /** null when nothing may be acted on: input errors, and no model verdict without a blocking signature. */
  action: KyaAction | null;
  allowed: boolean;
  screening: Screening;
  /** Rule 10: a certificate only for allow and identity_only. */
  certificateEligible: boolean;
  error?: KyaInputError;
}

/** What the judges found about a prompt; the input of the pure decision. */
export type KyaFindings =
  | { kind: 'no_prompt' }
  | { kind: 'invalid'; error: KyaInputError }
  | { kind: 'screened'; signatures: SignatureResult; model: { engine: string; injectionScore: number } | null };

const unscreened = (signatures: SignatureId[] = []): Screening =>
  ({ outcome: 'not_screened', engine: null, modelVerdict: false, injectionScore: null, signatures });

/**
 * The decision table. `model` is null for test keys (rule 11) and when no model is deployed (rule 2, 5).
 */
export function decideKya(findings: KyaFindings, thresholds: KyaThresholds = DEFAULT_KYA_THRESHOLDS): KyaDecision {
  if (findings.kind === 'invalid') {
    return { outcome: 'not_screened', action: null, allowed: false, screening: unscreened(), certificateEligible: false, error: findings.error };
  }
  if (findings.kind === 'no_prompt') {
    // Rules 7–8: without a prompt the action is identity_only; nothing screened, nothing allowed.
    return { outcome: 'not_screened', action: 'identity_only', allowed: false, screening: unscreened(), certificateEligible: true };
  }
  const { signatures, model } = findings;
  const screening = (outcome: ScreeningOutcome): Screening => ({
    outcome,
    engine: model ? model.engine : SIGNATURE_ENGINE,
    modelVerdict: model !== null,
    injectionScore: model ? model.injectionScore : null,
    signatures: signatures.ids,
  });
  const decided = (outcome: 'blocked' | 'review' | 'passed_screening'): KyaDecision => ({
    outcome,
    action: outcome === 'blocked' ? 'block' : outcome === 'review' ? 'review' : 'allow',
    allowed: outcome === 'passed_screening',
    screening: screening(outcome),
    certificateEligible: outcome === 'passed_screening',
  });

  // Rule 3: the blocking signature blocks on its own, with or without a model.
  if (signatures.blocking) return decided('blocked');
  // Rules 2 and 5: no model verdict and no blocking signature → not_screened, weak signatures included.
  if (!model) return { outcome: 'not_screened', action: null, allowed: false, screening: screening('not_screened'), certificateEligible: false };
  if (model.injectionScore >= thresholds.block) return decided('blocked');
  // Rule 4: a weak signature keeps an otherwise clean verdict at review.
  if (model.injectionScore >= thresholds.review || signatures.ids.length > 0) return decided('review');
  return decided('passed_screening');
}

export interface ScreenOptions {
  environment: KyaEnvironment;
  /** The deployed model; ignored for test keys (rule 11); null or absent when none is deployed. */
  model?: InjectionModel | null;
  thresholds?: KyaThresholds;
}

/** Options whose model judges on the calling thread, so that the screening answers at once. */
export type SyncScreenOptions = ScreenOptions & { model?: SyncInjectionModel | null };

/**
 * The facts about a prompt, found by the normaliser, the signatures and (live keys only) the model: at once when
 * the model judges on the calling thread (the embedded cascade), as a promise when it judges in another (ONNX).
 */
export function findKya(prompt: string | undefined, options: SyncScreenOptions): KyaFindings;
export function findKya(prompt: string | undefined, options: ScreenOptions): KyaFindings | Promise<KyaFindings>;
export function findKya(prompt: string | undefined, options: ScreenOptions): KyaFindings | Promise<KyaFindings> {
  if (prompt === undefined) return { kind: 'no_prompt' };
  // A prompt of only spaces has nothing to screen and would otherwise pass: it counts as empty (rule 7).
  if (prompt.trim() === '') return { kind: 'invalid', error: 'empty_prompt' };
  // Code points never outnumber UTF-16 units: only a long string needs counting.
  if (prompt.length > MAX_PROMPT_CHARACTERS && countCharacters(prompt) > MAX_PROMPT_CHARACTERS) return { kind: 'invalid', error: 'prompt_too_long' };
  const normalised = normalisePrompt(prompt);
  // Nor has a prompt of only invisible characters that decode to nothing.
  if (normalised.views.every((view) => view.text.trim() === '')) return { kind: 'invalid', error: 'empty_prompt' };
  const signatures = matchSignatures(normalised);
  const model = options.environment === 'live' ? options.model ?? null : null;
  if (!model) return { kind: 'screened', signatures, model: null };
  const screened = (injectionScore: number): KyaFindings => ({ kind: 'screened', signatures, model: { engine: model.engine, injectionScore } });
  const score = model.score(normalised.views.map((v) => v.cased));
  return typeof score === 'number' ? screened(score) : score.then(screened);
}

export function screenPrompt(prompt: string | undefined, options: SyncScreenOptions): KyaDecision;
export function screenPrompt(prompt: string | undefined, options: ScreenOptions): KyaDecision | Promise<KyaDecision>;
export function screenPrompt(prompt: string | undefined, options: ScreenOptions): KyaDecision | Promise<KyaDecision> {
  const decide = (findings: KyaFindings) => decideKya(findings, options.thresholds ?? DEFAULT_KYA_THRESHOLDS);
  const findings = findKya(prompt, options);
  return findings instanceof Promise ? findings.then(decide) : decide(findings);
}
