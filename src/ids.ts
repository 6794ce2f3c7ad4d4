import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 text from `bytes` random bytes (rejection sampling keeps every character equally likely). */
export function randomBase62(bytes: number): string {
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = 'acct' | 'key' | 'chk' | 'kyb' | 'aml' | 'kya' | 'cert' | 'bnd' | 'esc' | 'wfr' | 'req' | 'job';

/** A random, unguessable identifier with its resource prefix, e.g. `chk_4f…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}
