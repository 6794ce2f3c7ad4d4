import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62_CODES = Buffer.from(BASE62, 'latin1');
const SCRATCH = Buffer.alloc(64);

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
  // Characters go into a scratch buffer read out as one flat string (a request id is made on every request; adding
  // them to a string one by one built a chain of pieces that was copied again when written).
  const out = length <= SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const byte = nextRandomByte();
    if (byte < 248) out[filled++] = BASE62_CODES[byte % 62];
  }
  return out.toString('latin1', 0, length);
}

/**
 * A random, unguessable identifier with its resource prefix, e.g. `chk_4f…` (CONTRACT.md "Identifiers" lists them;
 * a check kind declares its own in CheckKindDefinition.idPrefix).
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(16)}`;
}

/**
 * The same identifier every time for the same seed, as long and as hard to guess as the seed's random part: for
 * work that may run twice after a crash and must find what its first attempt stored (a workflow step's checks,
 * seeded by the run's random id).
 */
export function derivedId(prefix: string, seed: string): string {
  let value = BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 32)}`);
  let out = '';
  for (let i = 0; i < 22; i++) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return `${prefix}_${out}`;
}
