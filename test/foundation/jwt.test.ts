import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { createHmac } from 'node:crypto';
import { type TestApp, type Tenant, createTestApp, errorBody } from '../helpers/app.ts';

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

describe('access tokens (POST /auth/token, JWKS)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  const mint = async (who: Tenant, clientId = 'portal') => {
    const response = await t.app.inject({ method: 'POST', url: '/auth/token', headers: who.headers, payload: { clientId, grantType: 'client_credentials' } });
    expect(response.statusCode).toBe(200);
    return response.json() as { accessToken: string; expiresIn: number; tokenType: string };
  };
  const call = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.tenant({ env: 'live', scopes: ['kyc:read', 'aml:screen'] });
    other = await t.tenant();
  });
  afterAll(() => t.close());

  it('mints an EdDSA JWT that verifies against the published JWKS and acts for its tenant', async () => {
    const token = await mint(tenant, 'dashboard-7');
    expect(token.tokenType).toBe('Bearer');
    expect(token.expiresIn).toBe(900);
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) expect(key.d).toBeUndefined();
    const { payload, protectedHeader } = await jwtVerify(token.accessToken, createLocalJWKSet(jwks), { issuer: 'http://kyx.test', algorithms: ['EdDSA'] });
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
    expect(payload).toMatchObject({ sub: 'dashboard-7', acct: tenant.accountId, env: 'live', scope: 'kyc:read aml:screen' });
    expect(payload.exp! - payload.iat!).toBe(900);
    const response = await call(token.accessToken);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ accountId: tenant.accountId, environment: 'live', permissions: ['kyc:read', 'aml:screen'] });
  });

  it('a JWT cannot mint tokens (key management needs the key itself)', async () => {
    const token = await mint(tenant);
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { authorization: `Bearer ${token.accessToken}` },
      payload: { clientId: 'x', grantType: 'client_credentials' },
    });
    errorBody(response, 401, 'unauthorized');
  });

  it('rejects alg none', async () => {
    const real = decodeJwt((await mint(tenant)).accessToken);
    const forged = new UnsecuredJWT({ ...real }).encode();
    errorBody(await call(forged), 401, 'unauthorized');
  });

  it('rejects HS256 signed with the public key (algorithm confusion)', async () => {
    const token = (await mint(tenant)).accessToken;
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const header = b64url(JSON.stringify({ alg: 'HS256', kid: jwks.keys[0].kid, typ: 'JWT' }));
    const payload = token.split('.')[1];
    for (const secret of [JSON.stringify(jwks.keys[0]), Buffer.from(jwks.keys[0].x, 'base64url')]) {
      const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
      errorBody(await call(`${header}.${payload}.${signature}`), 401, 'unauthorized');
    }
  });

  it('rejects an expired token', async () => {
    const short = await createTestApp({ env: { KYX_TOKEN_TTL_SECONDS: '1' } });
    try {
      const who = await short.tenant();
      const token = (await short.app.inject({ method: 'POST', url: '/auth/token', headers: who.headers, payload: { clientId: 'c', grantType: 'client_credentials' } })).json().accessToken;
      expect((await short.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      errorBody(await short.app.inject({ method: 'GET', url: '/api/v1/validate-key', headers: { authorization: `Bearer ${token}` } }), 401, 'unauthorized');
    } finally {
      await short.close();
    }
  });

  it('rejects a tampered payload (tenant swapped) and a token naming another tenant than its key', async () => {
    const token = (await mint(tenant)).accessToken;
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = b64url(JSON.stringify({ ...claims, acct: other.accountId }));
    errorBody(await call(`${header}.${tampered}.${signature}`), 401, 'unauthorized');
    const widened = b64url(JSON.stringify({ ...claims, scope: 'kyc:read aml:screen kyc:write' }));
    errorBody(await call(`${header}.${widened}.${signature}`), 401, 'unauthorized');
  });

  it('rejects a well-formed token signed by a key that is not ours', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const claims = decodeJwt((await mint(tenant)).accessToken);
    for (const kid of [jwks.keys[0].kid, 'attacker']) {
      const forged = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid }).sign(privateKey);
      errorBody(await call(forged), 401, 'unauthorized');
    }
    expect((await exportJWK(publicKey)).x).not.toBe(jwks.keys[0].x);
  });

  it('another document signed by the same keyring (typ other than JWT) never passes as an access token', async () => {
    const claims = decodeJwt((await mint(tenant)).accessToken);
    const { iss: _iss, iat: _iat, exp: _exp, sub, ...rest } = claims;
    const certificate = await t.context.keyring.sign(rest, { issuer: 'http://kyx.test', subject: sub, expiresInSeconds: 60, typ: 'kya-cert+jwt' });
    errorBody(await call(certificate), 401, 'unauthorized');
  });

  it('a token stops working when the key that minted it is revoked', async () => {
    const who = await t.tenant();
    const token = (await mint(who)).accessToken;
    expect((await call(token)).statusCode).toBe(200);
    await t.context.credentials.revoke(who.keyId);
    errorBody(await call(token), 401, 'unauthorized');
  });

  it('rotation: a token signed by the retired key stays valid until it expires, and its kid stays in the JWKS', async () => {
    const before = (await mint(tenant)).accessToken;
    const oldKid = t.context.keyring.activeKid();
    const newKid = await t.context.keyring.rotate();
    expect(newKid).not.toBe(oldKid);
    expect((await call(before)).statusCode).toBe(200);
    const kids = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.map((k: { kid: string }) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, newKid]));
    const after = (await mint(tenant)).accessToken;
    expect(JSON.parse(Buffer.from(after.split('.')[0], 'base64url').toString()).kid).toBe(newKid);
    // past the grace period the retired key is gone from the JWKS
    const later = new Date(Date.now() + 901_000);
    expect(t.context.keyring.jwks(later).keys.map((k) => k.kid)).toEqual([newKid]);
  });
});
