// kyx as an OAuth 2.0 authorization server, driven by a maintained client library (openid-client) against a
// running kyx, then the attacks of RFC 9700 §4 that apply to it.
import * as oauthClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kybSandboxScenarios } from '../../src/kyb/sandbox.ts';
import { type TestApp, type Tenant, createTestApp } from '../helpers/app.ts';
import { Browser, signedIn } from '../helpers/dashboard.ts';
import { freePort } from '../helpers/net.ts';

const REDIRECT = 'https://app.example/callback';

let t: TestApp;
let baseUrl: string;
let owner: Tenant;
let admin: Awaited<ReturnType<typeof signedIn>>;
let confidential: { clientId: string; clientSecret: string };

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { KYX_BASE_URL: baseUrl } });
  await t.app.listen({ port, host: '127.0.0.1' });
  owner = await t.tenant();
  admin = await signedIn(t, owner, 'admin');
  const registered = await t.context.services.oauth.registerClient(owner.accountId, {
    name: 'Acme CRM',
    redirectUris: [REDIRECT, 'http://localhost:8080/cb'],
    scopes: ['kyb:read', 'kyb:write', 'kyc:read'],
    environment: 'test',
  });
  confidential = { clientId: registered.client.clientId, clientSecret: registered.clientSecret! };
});
afterAll(() => t.close());

async function configuration(client: { clientId: string; clientSecret?: string }) {
  return oauthClient.discovery(new URL(baseUrl), client.clientId, client.clientSecret, client.clientSecret ? undefined : oauthClient.None(), {
    algorithm: 'oauth2',
    execute: [oauthClient.allowInsecureRequests],
  });
}

/** The user's part: open the authorization URL in a signed-in browser, allow, and return where kyx redirects. */
async function consent(browser: Browser, authorizationUrl: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const started = await browser.get(`${authorizationUrl.pathname}${authorizationUrl.search}`);
  expect(started.statusCode).toBe(303);
  const page = await browser.get(started.headers.location as string);
  expect(page.statusCode).toBe(200);
  const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)![1];
  const answered = await browser.post('/dashboard/oauth/consent', { _csrf: hidden('_csrf'), request: hidden('request'), consent: hidden('consent'), decision });
  expect(answered.statusCode).toBe(303);
  return new URL(answered.headers.location as string);
}

async function authorize(client: { clientId: string; clientSecret?: string }, parameters: Record<string, string> = {}) {
  const config = await configuration(client);
  const verifier = oauthClient.randomPKCECodeVerifier();
  const state = oauthClient.randomState();
  const url = oauthClient.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'kyb:read kyb:write',
    code_challenge: await oauthClient.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...parameters,
  });
  const callback = await consent(admin.browser, url);
  return { config, verifier, state, callback };
}

const api = (token: string, url: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${url}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });

describe('the authorization code flow with openid-client', () => {
  it('publishes its metadata (RFC 8414)', async () => {
    const metadata = await (await fetch(`${baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      issuer: baseUrl,
      authorization_endpoint: `${baseUrl}/oauth/authorize`,
      token_endpoint: `${baseUrl}/auth/token`,
      revocation_endpoint: `${baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  });

  it('authorizes, exchanges the code, calls the API with the granted scopes only, refreshes and revokes', async () => {
    const { config, verifier, state, callback } = await authorize(confidential);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await oauthClient.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('kyb:read kyb:write');

    const validated = await api(tokens.access_token, '/api/v1/validate-key');
    expect(validated.status).toBe(200);
    expect(await validated.json()).toMatchObject({ accountId: owner.accountId, environment: 'test', permissions: ['kyb:read', 'kyb:write'] });
    const verified = await api(tokens.access_token, '/api/v1/kyb/verify', { method: 'POST', body: JSON.stringify(kybSandboxScenarios[0].request) });
    expect(verified.status).toBe(200);
    // a scope the grant lacks
    expect((await api(tokens.access_token, '/api/v1/aml/screen', { method: 'POST', body: JSON.stringify({ name: 'x y' }) })).status).toBe(403);
    // counted against the account's plan
    const usage = (await (await api(tokens.access_token, '/api/v1/validate-key')).json()).usage.today;
    expect(usage).toBeGreaterThanOrEqual(3);

    const refreshed = await oauthClient.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api(refreshed.access_token, '/api/v1/validate-key')).status).toBe(200);
    const narrower = await oauthClient.refreshTokenGrant(config, refreshed.refresh_token!, { scope: 'kyb:read' });
    expect((await (await api(narrower.access_token, '/api/v1/validate-key')).json()).permissions).toEqual(['kyb:read']);

    await oauthClient.tokenRevocation(config, narrower.refresh_token!);
    expect((await api(narrower.access_token, '/api/v1/validate-key')).status).toBe(401);
    await expect(oauthClient.refreshTokenGrant(config, narrower.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const audit = await t.context.services.users.auditLog(owner.accountId, { limit: 100 });
    expect(audit.map((entry) => entry.action)).toContain('oauth.granted');
  });

  it('works for a public client with PKCE and no secret', async () => {
    const registered = await t.context.services.oauth.registerClient(owner.accountId, { name: 'CLI', redirectUris: [REDIRECT], scopes: ['kyb:read'], public: true, environment: 'test' });
    expect(registered.clientSecret).toBeUndefined();
    const { config, verifier, state, callback } = await authorize({ clientId: registered.client.clientId }, { scope: 'kyb:read' });
    const tokens = await oauthClient.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect((await api(tokens.access_token, '/api/v1/validate-key')).status).toBe(200);
  });

  it('redirects a denial as access_denied with the state', async () => {
    const config = await configuration(confidential);
    const url = oauthClient.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await oauthClient.calculatePKCECodeChallenge(oauthClient.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: 'st-1',
    });
    const callback = await consent(admin.browser, url, 'deny');
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1' });
  });
});

describe('RFC 9700 attacks', () => {
  const authorizeUrl = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params)}`;
  const goodParams = () => ({
    response_type: 'code',
    client_id: confidential.clientId,
    redirect_uri: REDIRECT,
    state: 'abc',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });

  it('never redirects to an unregistered redirect URI: prefix, case, extra path, another host, open redirect', async () => {
    for (const redirect of [`${REDIRECT}/extra`, 'https://APP.example/callback', 'https://app.example/callback?x=1', 'https://app.example/call', 'https://evil.example/callback', `https://app.example/callback/../../evil`, 'https://app.example.evil.example/callback']) {
      const answer = await t.app.inject({ method: 'GET', url: authorizeUrl({ ...goodParams(), redirect_uri: redirect }), headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers.location).toBeUndefined();
      expect(answer.headers['content-type']).toContain('text/html');
      expect(answer.body).toContain('not registered');
      const fromScript = await t.app.inject({ method: 'GET', url: authorizeUrl({ ...goodParams(), redirect_uri: redirect }) });
      expect(fromScript.statusCode).toBe(400);
      expect(fromScript.headers.location).toBeUndefined();
      expect(fromScript.json()).toMatchObject({ code: 'invalid_request' });
    }
    const unknownClient = await t.app.inject({ method: 'GET', url: authorizeUrl({ ...goodParams(), client_id: 'oac_unknown' }) });
    expect(unknownClient.statusCode).toBe(400);
    expect(unknownClient.headers.location).toBeUndefined();
  });

  it('requires PKCE S256 and state, and refuses scopes beyond the client’s, through the redirect', async () => {
    for (const [params, error] of [
      [{ code_challenge: '' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ state: '' }, 'invalid_request'],
      [{ scope: 'kyb:read aml:screen' }, 'invalid_scope'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url: authorizeUrl({ ...goodParams(), ...params }) });
      expect(answer.statusCode).toBe(303);
      const location = new URL(answer.headers.location as string);
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe(error);
    }
  });

  it('refuses a wrong PKCE verifier, a code of another client, a replayed code (revoking what it issued) and an expired one', async () => {
    const first = await authorize(confidential);
    const code = first.callback.searchParams.get('code')!;
    const secretAuth = { client_id: confidential.clientId, client_secret: confidential.clientSecret };
    const wrongVerifier = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: oauthClient.randomPKCECodeVerifier(), ...secretAuth });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });

    const second = await authorize(confidential);
    const other = await t.context.services.oauth.registerClient(owner.accountId, { name: 'Other', redirectUris: [REDIRECT], environment: 'test' });
    const injected = await tokenRequest({ grant_type: 'authorization_code', code: second.callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: second.verifier, client_id: other.client.clientId, client_secret: other.clientSecret! });
    expect(await injected.json()).toMatchObject({ error: 'invalid_grant' });
    // the rightful client still redeems it
    const tokens = await oauthClient.authorizationCodeGrant(second.config, second.callback, { pkceCodeVerifier: second.verifier, expectedState: second.state });
    expect((await api(tokens.access_token, '/api/v1/validate-key')).status).toBe(200);
    const replay = await tokenRequest({ grant_type: 'authorization_code', code: second.callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: second.verifier, ...secretAuth });
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await api(tokens.access_token, '/api/v1/validate-key')).status).toBe(401);
    await expect(oauthClient.refreshTokenGrant(second.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    const third = await authorize(confidential);
    await t.context.storage.db.updateTable('oauth_codes').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('used_at', 'is', null).execute();
    await expect(oauthClient.authorizationCodeGrant(third.config, third.callback, { pkceCodeVerifier: third.verifier, expectedState: third.state })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a redirect_uri at the token endpoint that differs from the authorization request, and a wrong client secret', async () => {
    const flow = await authorize(confidential);
    const code = flow.callback.searchParams.get('code')!;
    const wrongSecret = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: flow.verifier }, { authorization: `Basic ${Buffer.from(`${confidential.clientId}:nope`).toString('base64')}` });
    expect(wrongSecret.status).toBe(401);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
    const otherRedirect = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:8080/cb', code_verifier: flow.verifier, client_id: confidential.clientId, client_secret: confidential.clientSecret });
    expect(await otherRedirect.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('a replayed refresh token revokes the whole grant; a refresh cannot widen the scopes', async () => {
    const flow = await authorize(confidential);
    const tokens = await oauthClient.authorizationCodeGrant(flow.config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    await expect(oauthClient.refreshTokenGrant(flow.config, tokens.refresh_token!, { scope: 'kyb:read kyc:read' })).rejects.toMatchObject({ error: 'invalid_scope' });
    const rotated = await oauthClient.refreshTokenGrant(flow.config, tokens.refresh_token!);
    await expect(oauthClient.refreshTokenGrant(flow.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await api(rotated.access_token, '/api/v1/validate-key')).status).toBe(401);
    await expect(oauthClient.refreshTokenGrant(flow.config, rotated.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('protects the consent form: no CSRF token → 403, another session’s consent token or a second answer → refused, non-admins → 403', async () => {
    const config = await configuration(confidential);
    const url = oauthClient.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      code_challenge: await oauthClient.calculatePKCECodeChallenge(oauthClient.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: 's',
    });
    const started = await admin.browser.get(`${url.pathname}${url.search}`);
    const page = await admin.browser.get(started.headers.location as string);
    const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(body)![1];
    const form = { request: hidden(page.body, 'request'), consent: hidden(page.body, 'consent'), decision: 'approve' };
    expect((await admin.browser.post('/dashboard/oauth/consent', form)).statusCode).toBe(403);
    expect((await admin.browser.post('/dashboard/oauth/consent', { ...form, _csrf: 'forged' })).statusCode).toBe(403);

    // a second admin's session cannot use the first one's consent token (the attacker's own session, CSRF'd or not)
    const other = await signedIn(t, owner, 'admin');
    const otherCsrf = Browser.csrfOf(await other.browser.get('/dashboard'));
    expect((await other.browser.post('/dashboard/oauth/consent', { ...form, _csrf: otherCsrf })).statusCode).toBe(400);

    const csrf = hidden(page.body, '_csrf');
    expect((await admin.browser.post('/dashboard/oauth/consent', { ...form, _csrf: csrf })).statusCode).toBe(303);
    expect((await admin.browser.post('/dashboard/oauth/consent', { ...form, _csrf: csrf })).statusCode).toBe(400);

    const analyst = await signedIn(t, owner, 'analyst');
    expect((await analyst.browser.get(started.headers.location as string)).statusCode).toBe(403);
  });

  it("an account's token reaches only its own resources; another account's admin cannot consent for it", async () => {
    const stranger = await t.tenant();
    const theirs = await t.app.inject({ method: 'POST', url: '/api/v1/kyb/verify', headers: stranger.headers, payload: kybSandboxScenarios[0].request });
    const theirCheck = theirs.json().kybId as string;
    const flow = await authorize(confidential);
    const tokens = await oauthClient.authorizationCodeGrant(flow.config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    expect((await api(tokens.access_token, `/api/v1/kyb/checks/${theirCheck}`)).status).toBe(404);

    const strangerAdmin = await signedIn(t, stranger, 'admin');
    const started = await strangerAdmin.browser.get(`/oauth/authorize?${new URLSearchParams(goodParams())}`);
    const page = await strangerAdmin.browser.get(started.headers.location as string);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('not for your account');
  });

  it('client_credentials still needs an API key, not an OAuth token', async () => {
    const flow = await authorize(confidential);
    const tokens = await oauthClient.authorizationCodeGrant(flow.config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const minted = await fetch(`${baseUrl}/auth/token`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'x', grantType: 'client_credentials' }) });
    expect(minted.status).toBe(401);
    const unsupported = await tokenRequest({ grant_type: 'password', username: 'a', password: 'b' });
    expect(await unsupported.json()).toMatchObject({ error: 'unsupported_grant_type', code: 'unsupported_grant_type' });
  });
});

describe('the dashboard OAuth apps page', () => {
  it('registers a client, lists grants and revokes one, which stops its tokens at once', async () => {
    const registered = await admin.browser.submit('/dashboard/oauth', '/dashboard/oauth/clients', { name: 'Zapier-like', redirectUris: `${REDIRECT}\nhttps://second.example/cb`, type: 'confidential', environment: 'test', scopes: ['kyb:read'] });
    expect(registered.statusCode).toBe(200);
    const clientId = /data-testid="client-id">([^<]+)</.exec(registered.body)![1];
    const clientSecret = /data-testid="client-secret">([^<]+)</.exec(registered.body)![1];
    const flow = await authorize({ clientId, clientSecret }, { scope: 'kyb:read' });
    const tokens = await oauthClient.authorizationCodeGrant(flow.config, flow.callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const grant = (await t.context.services.oauth.grants(owner.accountId)).find((one) => one.clientId === clientId)!;
    expect((await admin.browser.get('/dashboard/oauth')).body).toContain(grant.grantId);
    const revoked = await admin.browser.submit('/dashboard/oauth', `/dashboard/oauth/grants/${grant.grantId}/revoke`, {});
    expect(revoked.statusCode).toBe(200);
    expect((await api(tokens.access_token, '/api/v1/validate-key')).status).toBe(401);
    const actions = (await t.context.services.users.auditLog(owner.accountId, { limit: 200 })).map((entry) => `${entry.action} ${entry.target}`);
    expect(actions).toEqual(expect.arrayContaining([`oauth.client_registered ${clientId}`, `oauth.grant_revoked ${grant.grantId}`]));
    const bad = await admin.browser.submit('/dashboard/oauth', '/dashboard/oauth/clients', { name: 'Bad', redirectUris: 'http://example.com/cb', type: 'public', environment: 'live' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must use https');
  });
});

describe('kyx oauth clients create', () => {
  it('registers confidential and public clients of an account, refusing a redirect URI that is not https or loopback', async () => {
    const { kyx } = await import('../helpers/cli.ts');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-oauth-cli-'));
    try {
      const env = { KYX_DATA_DIR: dataDir };
      const accountId = kyx(['accounts', 'create', '--name', 'OAuth Co', '--plan', 'micro', '--json'], env).json().accountId;
      const confidentialClient = kyx(['oauth', 'clients', 'create', '--account', accountId, '--name', 'CRM', '--redirect-uri', REDIRECT, '--redirect-uri', 'http://localhost:3001/cb', '--scopes', 'kyb:read,kyc:read', '--json'], env);
      expect(confidentialClient.status).toBe(0);
      expect(confidentialClient.json()).toEqual({ clientId: expect.stringMatching(/^oac_/), clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      const publicClient = kyx(['oauth', 'clients', 'create', '--account', accountId, '--name', 'App', '--redirect-uri', REDIRECT, '--public', '--json'], env);
      expect(Object.keys(publicClient.json())).toEqual(['clientId']);
      const insecure = kyx(['oauth', 'clients', 'create', '--account', accountId, '--name', 'Bad', '--redirect-uri', 'http://app.example/cb', '--json'], env);
      expect(insecure.status).toBe(2);
      expect(insecure.json().error).toContain('must use https');
      expect(kyx(['oauth', 'clients', 'create', '--account', accountId, '--name', 'Bad', '--redirect-uri', 'https://app.example/cb#frag'], env).status).toBe(2);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
