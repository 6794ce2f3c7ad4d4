import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey } from 'jose';
import type { Database } from '../storage/schema.ts';

export const SIGNING_ALGORITHM = 'EdDSA';

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  createdAt: string;
  retiredAt: string | null;
}

/**
 * The service's Ed25519 signing keys (JWT access tokens and KYA certificates). The newest unretired key signs;
 * a retired key stays published and verifiable for `verifyGraceSeconds` (the longest lifetime of anything it
 * signed), then drops out of the JWKS.
 */
export interface Keyring {
  sign(payload: JWTPayload, options: { issuer: string; expiresInSeconds: number; typ?: string; jti?: string; subject?: string }): Promise<string>;
  verify(token: string, options: { issuer: string; requiredClaims?: string[]; typ?: string }): Promise<JWTPayload>;
  jwks(now?: Date): { keys: JWK[] };
  rotate(now?: Date): Promise<string>;
  activeKid(): string;
}

async function generateKey(db: Kysely<Database>, now: Date): Promise<void> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = randomUUID();
  await db
    .insertInto('signing_keys')
    .values({
      kid,
      algorithm: SIGNING_ALGORITHM,
      private_jwk: JSON.stringify(await exportJWK(privateKey)),
      public_jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' }),
      created_at: now.toISOString(),
      retired_at: null,
    })
    .execute();
}

async function loadKeys(db: Kysely<Database>): Promise<LoadedKey[]> {
  const rows = await db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid').execute();
  return Promise.all(
    rows.map(async (row) => {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      return {
        kid: row.kid,
        publicJwk,
        privateKey: (await importJWK(JSON.parse(row.private_jwk), SIGNING_ALGORITHM)) as CryptoKey,
        publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
        createdAt: row.created_at,
        retiredAt: row.retired_at,
      };
    }),
  );
}

export async function openKeyring(db: Kysely<Database>, verifyGraceSeconds: number): Promise<Keyring> {
  let keys = await loadKeys(db);
  if (!keys.some((key) => key.retiredAt === null)) {
    await generateKey(db, new Date());
    keys = await loadKeys(db);
  }
  let lastReload = Date.now();

  const active = () => {
    const key = keys.find((k) => k.retiredAt === null);
    if (!key) throw new Error('no active signing key');
    return key;
  };
  const publishable = (key: LoadedKey, now: Date) =>
    key.retiredAt === null || Date.parse(key.retiredAt) + verifyGraceSeconds * 1000 > now.getTime();

  /** A kid we do not know may have been made by another instance's rotation: reload, at most once a second. */
  const findKey = async (kid: string | undefined) => {
    let key = keys.find((k) => k.kid === kid);
    if (!key && kid && Date.now() - lastReload > 1000) {
      lastReload = Date.now();
      keys = await loadKeys(db);
      key = keys.find((k) => k.kid === kid);
    }
    return key;
  };

  return {
    async sign(payload, options) {
      const key = active();
      let jwt = new SignJWT(payload)
        .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: options.typ ?? 'JWT' })
        .setIssuer(options.issuer)
        .setIssuedAt()
        .setExpirationTime(`${options.expiresInSeconds}s`);
      if (options.jti) jwt = jwt.setJti(options.jti);
      if (options.subject) jwt = jwt.setSubject(options.subject);
      return jwt.sign(key.privateKey);
    },
    async verify(token, options) {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = await findKey(header.kid);
          if (!key || !publishable(key, new Date())) throw new Error('unknown signing key');
          return key.publicKey;
        },
        {
          algorithms: [SIGNING_ALGORITHM],
          issuer: options.issuer,
          typ: options.typ,
          requiredClaims: ['exp', 'iat', ...(options.requiredClaims ?? [])],
        },
      );
      return payload;
    },
    jwks(now = new Date()) {
      return { keys: keys.filter((key) => publishable(key, now)).map((key) => key.publicJwk) };
    },
    async rotate(now = new Date()) {
      await db.updateTable('signing_keys').set({ retired_at: now.toISOString() }).where('retired_at', 'is', null).execute();
      await generateKey(db, now);
      keys = await loadKeys(db);
      lastReload = Date.now();
      return active().kid;
    },
    activeKid: () => active().kid,
  };
}
