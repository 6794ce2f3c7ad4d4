// Secrets kyx hands out once and must recognise later (API keys, session and set-up tokens, OAuth codes and refresh
// tokens, client secrets): stored only as their SHA-256, compared by it.
import { hash, randomBytes } from 'node:crypto';

export function hashSecret(secret: string): string {
  // The one-shot form: no Hash object per call (this runs on every request that carries an API key).
  return hash('sha256', secret, 'hex');
}

/** A new bearer secret: 32 random bytes in base64url. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}
