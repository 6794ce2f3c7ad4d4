/**
 * KYA verification as the API offers it: screen the prompt (screen.ts), issue a certificate when rule 10 allows,
 * store the verification (and bill a live one) before answering.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Keyring } from '../accounts/signing-keys.ts';
import type { Meters } from '../accounts/usage.ts';
import { newId } from '../ids.ts';
import { findStoredCheck } from '../storage/checks.ts';
import type { StoredCheck } from '../modules.ts';
import type { Database } from '../storage/schema.ts';
import { countCharacters, type KyaThresholds } from './config.ts';
import type { InjectionModel } from './model.ts';
import { screenPrompt, type KyaDecision, type KyaInputError, type Screening } from './screen.ts';
import { issueCertificate } from './certificates.ts';
import type { KyaAgent, KyaCertificate, KyaVerificationRecord, KyaVerifyRequest, KyaVerifyResponse } from './schemas.ts';

export interface KyaCaller {
  accountId: string;
  /** The key's environment: test keys get the sandbox fixture (rule 11). */
  environment: 'test' | 'live';
}

export type KyaVerifyResult =
  | { kind: 'verified'; response: KyaVerifyResponse }
  /** 503: stored for the audit trail, never billed, nothing allowed or issued (rule 2). */
  | { kind: 'not_screened'; verificationId: string; screening: Screening }
  | { kind: 'invalid'; error: KyaInputError };

export interface KyaService {
  verify(caller: KyaCaller, request: KyaVerifyRequest, now?: Date): Promise<KyaVerifyResult>;
  findVerification(accountId: string, id: string): Promise<StoredCheck | undefined>;
  /** The tenant's certificate, unsigned ones included (the route refuses those). */
  findCertificate(accountId: string, id: string): Promise<KyaCertificate | undefined>;
}

export interface KyaServiceDeps {
  db: Kysely<Database>;
  keyring: Keyring;
  meters: Meters;
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
  environment: 'sandbox' | 'live';
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
      const decision = screenPrompt(request.prompt, {
        environment: caller.environment,
        model: caller.environment === 'live' ? liveModel() : null,
        thresholds: deps.thresholds,
      });
      if (decision.error) return { kind: 'invalid', error: decision.error };

      const id = newId('kya');
      const environment = caller.environment === 'live' ? 'live' : 'sandbox';
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
      // Only an answered verification (a 200) is billed, and only for live keys (rule 11); a 503 not_screened is
      // stored so the refusal can be audited, but nothing was screened by a model, allowed or issued (rule 2).
      const billable = caller.environment === 'live' && decision.httpStatus === 200;

      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('kya_verifications')
          .values({
            id,
            account_id: caller.accountId,
            environment,
            outcome: decision.outcome,
            action: decision.action,
            signatures: JSON.stringify(decision.screening.signatures),
            score: decision.screening.injectionScore,
            engine: decision.screening.engine,
            prompt_sha256: record.promptSha256,
            prompt_length: record.promptLength,
            prompt: record.prompt ?? null,
            certificate_id: certificate?.id ?? null,
            created_at: record.createdAt,
            record: JSON.stringify(record),
          })
          .execute();
        if (certificate) {
          await trx
            .insertInto('kya_certificates')
            .values({
              id: certificate.id,
              account_id: caller.accountId,
              verification_id: id,
              environment,
              alg: certificate.alg,
              token: certificate.token,
              issued_at: certificate.issuedAt,
              expires_at: certificate.expiresAt,
              record: JSON.stringify(certificate),
            })
            .execute();
        }
        if (billable) await deps.meters.record(trx, caller.accountId, 'kyaChecks', now);
      });

      if (decision.action === null) {
        return { kind: 'not_screened', verificationId: id, screening: decision.screening };
      }
      return {
        kind: 'verified',
        response: {
          verificationId: id,
          allowed: decision.allowed,
          action: decision.action,
          screening: decision.screening,
          environment,
          ...(certificate ? { certificate } : {}),
        },
      };
    },

    findVerification: (accountId, id) => findStoredCheck(deps.db, 'kya', accountId, id),

    async findCertificate(accountId, id) {
      const row = await deps.db
        .selectFrom('kya_certificates')
        .select('record')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row ? (JSON.parse(row.record) as KyaCertificate) : undefined;
    },
  };
}
