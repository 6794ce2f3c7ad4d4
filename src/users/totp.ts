// Time-based one-time passwords (RFC 6238, SHA-1, 6 digits, 30 s), as authenticator apps expect them.
import { Secret, TOTP } from 'otpauth';

const PERIOD_SECONDS = 30;

const totpOf = (secret: string, label = 'kyx') => new TOTP({ issuer: 'kyx', label, secret: Secret.fromBase32(secret), period: PERIOD_SECONDS });

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads (as text or as a QR code). */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** The 30-second step the code belongs to (one step either side allowed for clock drift), or null. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}
