import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn 4 KiB at a time: one id per request made a syscall per request otherwise.
let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** Base62 text carrying at least `bytes` random bytes (rejection sampling keeps every character equally likely). */
export function randomBase62(bytes: number): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * A random, unguessable identifier with its resource prefix, e.g. `chk_4f…` (CONTRACT.md "Identifiers" lists them;
 * a check kind declares its own in CheckKindDefinition.idPrefix).
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}
