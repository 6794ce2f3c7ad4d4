/**
 * KYA agent certificates: a compact JWS signed with the service keyring (verifiable with /.well-known/jwks.json),
 * or, in the sandbox, an unsigned JWT (`alg: none`) that no relying party may accept.
 */
import { base64url, decodeJwt, type JWTPayload } from 'jose';
import type { Keyring } from '../accounts/signing-keys.ts';
import type { ScreeningOutcome } from './screen.ts';
import type { KyaAgent, KyaCertificate } from './schemas.ts';

export const CERTIFICATE_TYPE = 'kya-cert+jwt';

export interface CertificateSubject {
  id: string;
  accountId: string;
  verificationId: string;
  agent: KyaAgent;
  action: 'allow' | 'identity_only';
  outcome: ScreeningOutcome;
  /** Identifies the screened prompt without carrying it; null for identity_only. */
  promptSha256: string | null;
  environment: 'sandbox' | 'live';
}

export interface CertificateOptions {
  issuer: string;
  lifetimeSeconds: number;
  now: Date;
}

/** What the token asserts; the registered claims (iss, iat, exp, jti) are added when it is minted. */
export function certificateClaims(subject: CertificateSubject): JWTPayload {
  return {
    ...(subject.agent.id ? { sub: subject.agent.id } : {}),
    agent: subject.agent,
    operator: subject.agent.operator ?? null,
    tenant: subject.accountId,
    verificationId: subject.verificationId,
    action: subject.action,
    screening: { outcome: subject.outcome },
    promptSha256: subject.promptSha256,
    environment: subject.environment,
  };
}

function unsignedToken(claims: JWTPayload): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: CERTIFICATE_TYPE })}.${encode(claims)}.`;
}

/**
 * Sandbox certificates are never signed (rule 11): a test key works on synthetic data and must not be able to mint
 * a credential that verifies against the service's public keys. Live certificates are signed by the active key.
 */
export async function issueCertificate(keyring: Keyring, subject: CertificateSubject, options: CertificateOptions): Promise<KyaCertificate> {
  const claims = certificateClaims(subject);
  let token: string;
  let issuedAt: number;
  let expiresAt: number;
  if (subject.environment === 'live') {
    token = await keyring.sign(claims, { issuer: options.issuer, expiresInSeconds: options.lifetimeSeconds, typ: CERTIFICATE_TYPE, jti: subject.id });
    // The keyring stamps iat itself: read the times back so the object and the token can never disagree.
    const minted = decodeJwt(token);
    issuedAt = minted.iat!;
    expiresAt = minted.exp!;
  } else {
    issuedAt = Math.floor(options.now.getTime() / 1000);
    expiresAt = issuedAt + options.lifetimeSeconds;
    token = unsignedToken({ ...claims, iss: options.issuer, iat: issuedAt, exp: expiresAt, jti: subject.id });
  }
  return {
    id: subject.id,
    alg: subject.environment === 'live' ? 'EdDSA' : 'none',
    token,
    agent: subject.agent,
    action: subject.action,
    environment: subject.environment,
    issuedAt: new Date(issuedAt * 1000).toISOString(),
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}
