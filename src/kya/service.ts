/**
 * KYA verification as the API offers it: screen the prompt (screen.ts), issue a certificate when rule 10 allows,
 * store the verification (and bill a live one) before answering.
 */
import { createHash } from 'node:crypto';
import type { Keyring } from '../accounts/signing-keys.ts';
import type { KeyEnvironment, RecordEnvironment } from '../core.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { type CheckStore, checkEnvironment } from '../storage/checks.ts';
import { countCharacters, MAX_PROMPT_CHARACTERS, type KyaThresholds } from './config.ts';
import type { InjectionModel } from './model.ts';
import { screenPrompt, type KyaDecision, type KyaInputError } from './screen.ts';
import { CERTIFICATE_TYPE, issueCertificate } from './certificates.ts';
import type { CertificateRepository } from './repository.ts';
import type { KyaAgent, KyaCertificate, KyaVerificationRecord, KyaVerifyRequest, KyaVerifyResponse } from './schemas.ts';

export interface KyaCaller {
  accountId: string;
  /** The key's environment: test keys get the sandbox fixture (rule 11). */
  environment: KeyEnvironment;
  /** The id to store the check under, for a caller that must find it again after a crash (a workflow step). */
  checkId?: string;
}

export interface KyaService {
  /**
   * Screens and stores the verification. Throws DomainError `invalid_input` (empty prompt) or `too_large`
   * (nothing stored), or `not_screened` when no model judged and no blocking signature matched: that refusal is
   * stored for the audit trail, never billed, and nothing is allowed or issued (rule 2).
   */
  verify(caller: KyaCaller, request: KyaVerifyRequest, now?: Date): Promise<KyaVerifyResponse>;
  /** The tenant's certificate, unsigned ones included (the route refuses those). */
  findCertificate(accountId: string, id: string): Promise<KyaCertificate | undefined>;
  /**
   * Checks a pasted certificate against this service's JWKS: its EdDSA signature, issuer, type and expiry. An
   * unsigned sandbox certificate is never valid.
   */
  checkCertificate(token: string): Promise<{ valid: true; claims: Record<string, unknown> } | { valid: false; reason: string }>;
}

export interface KyaServiceDeps {
  checks: CheckStore;
  certificates: CertificateRepository;
  keyring: Keyring;
  issuer: string;
  certificateLifetimeSeconds: number;
  keepPrompts: boolean;
  thresholds: KyaThresholds;
  /** Called on the first live screening, not before: tests and the CLI build many contexts. */
  loadModel: () => InjectionModel;
}

export interface PromptFingerprint {
  promptSha256: string;
  /** In characters (code points), as the 32,000 limit counts them. */
  promptLength: number;
}

export function promptFingerprint(prompt: string): PromptFingerprint {
  return { promptSha256: createHash('sha256').update(prompt, 'utf8').digest('hex'), promptLength: countCharacters(prompt) };
}

/** The public record of a verification (GET /api/v1/kya/verifications/{id}, RPT-KYA). */
export function verificationRecord(input: {
  id: string;
  createdAt: Date;
  environment: RecordEnvironment;
  decision: KyaDecision;
  agent: KyaAgent;
  /** null when no prompt was sent. */
  fingerprint: PromptFingerprint | null;
  /** The prompt, only when the operator keeps prompts. */
  keptPrompt: string | undefined;
  certificate: KyaCertificate | undefined;
}): KyaVerificationRecord {
  const { decision, certificate } = input;
  const record: KyaVerificationRecord = {
    verificationId: input.id,
    createdAt: input.createdAt.toISOString(),
    environment: input.environment,
    allowed: decision.allowed,
    action: decision.action,
    screening: decision.screening,
    agent: input.agent,
    promptSha256: input.fingerprint?.promptSha256 ?? null,
    promptLength: input.fingerprint?.promptLength ?? null,
  };
  if (input.keptPrompt !== undefined) record.prompt = input.keptPrompt;
  if (certificate) {
    const { token: _credential, ...summary } = certificate;
    record.certificate = summary;
  }
  return record;
}

export function createKyaService(deps: KyaServiceDeps): KyaService {
  let model: InjectionModel | undefined;
  const liveModel = () => (model ??= deps.loadModel());

  return {
    async verify(caller, request, now = new Date()) {
      const decision = await screenPrompt(request.prompt, {
        environment: caller.environment,
        model: caller.environment === 'live' ? liveModel() : null,
        thresholds: deps.thresholds,
      });
      if (decision.error) throw inputError(decision.error);

      const { checks } = deps;
      const id = caller.checkId ?? checks.newId('kya');
      const environment = checkEnvironment(caller.environment);
      const agent = request.agent ?? {};
      const fingerprint = request.prompt === undefined ? null : promptFingerprint(request.prompt);
      const certificate =
        decision.certificateEligible && (decision.action === 'allow' || decision.action === 'identity_only')
          ? await issueCertificate(
              deps.keyring,
              {
                id: newId('cert'),
                accountId: caller.accountId,
                verificationId: id,
                agent,
                action: decision.action,
                outcome: decision.outcome,
                promptSha256: fingerprint?.promptSha256 ?? null,
                environment,
              },
              { issuer: deps.issuer, lifetimeSeconds: deps.certificateLifetimeSeconds, now },
            )
          : undefined;
      const keptPrompt = deps.keepPrompts ? request.prompt : undefined;
      const record = verificationRecord({ id, createdAt: now, environment, decision, agent, fingerprint, keptPrompt, certificate });
      // Only an answered verification is billed, and only for live keys (rule 11); a not_screened refusal is
      // stored so it can be audited, but nothing was screened by a model, allowed or issued (rule 2).
      await checks.transaction(async (trx) => {
        await checks.insert(trx, 'kya', {
          id,
          accountId: caller.accountId,
          environment,
          createdAt: record.createdAt,
          record,
          billable: decision.action !== null,
          billedAt: now,
          columns: {
            outcome: decision.outcome,
            action: decision.action,
            signatures: JSON.stringify(decision.screening.signatures),
            score: decision.screening.injectionScore,
            engine: decision.screening.engine,
            prompt_sha256: record.promptSha256,
            prompt_length: record.promptLength,
            prompt: record.prompt ?? null,
            certificate_id: certificate?.id ?? null,
          },
        });
        if (certificate) await deps.certificates.insert(trx, certificate, { accountId: caller.accountId, verificationId: id, environment });
      });

      if (decision.action === null) {
        throw new DomainError('not_screened', 'No screening model judged the prompt and no blocking signature matched; nothing is allowed or issued', {
          details: { verificationId: id, screening: decision.screening },
        });
      }
      return {
        verificationId: id,
        allowed: decision.allowed,
        action: decision.action,
        screening: decision.screening,
        environment,
        ...(certificate ? { certificate } : {}),
      };
    },

    findCertificate: (accountId, id) => deps.certificates.find(accountId, id),
    async checkCertificate(token) {
      try {
        return { valid: true, claims: await deps.keyring.verify(token.trim(), { issuer: deps.issuer, typ: CERTIFICATE_TYPE }) };
      } catch (error) {
        return { valid: false, reason: (error as Error).message };
      }
    },
  };
}

function inputError(error: KyaInputError): DomainError {
  if (error === 'empty_prompt') {
    return DomainError.invalid([{ path: '/prompt', message: 'must not be empty; omit prompt for an identity-only certificate' }]);
  }
  return new DomainError('too_large', `The prompt is longer than ${MAX_PROMPT_CHARACTERS.toLocaleString('en')} characters`);
}
