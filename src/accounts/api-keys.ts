import { hashSecret } from '../secrets.ts';
import { randomBase62 } from '../ids.ts';

export type Environment = 'test' | 'live';

const KEY_PREFIX: Record<Environment, string> = { test: 'svc_test_sk_', live: 'svc_live_sk_' };
const KEY_PATTERN = /^svc_(test|live)_sk_[0-9A-Za-z]{43,}$/;

/** A new API key: the prefix that fixes its environment and 32 random bytes in base62. */
export function generateApiKey(environment: Environment): string {
  return KEY_PREFIX[environment] + randomBase62(32);
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export const hashApiKey = hashSecret;

/** What may be shown of a key after creation: its environment prefix and four characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.test.length + 4);
}
