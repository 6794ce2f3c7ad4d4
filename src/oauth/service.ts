// kyx as an OAuth 2.0 authorization server for its tenants' data (RFC 6749, RFC 9700): registered clients with
// exact redirect URIs, the authorization code grant with PKCE S256 only, one-time codes, rotating refresh tokens
// whose reuse revokes the grant, revocation (RFC 7009) and metadata (RFC 8414).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Credentials } from '../accounts/credentials.ts';
import { SCOPES, type Scope, isScope } from '../accounts/scopes.ts';
import type { Keyring } from '../accounts/signing-keys.ts';
import { DomainError } from '../errors.ts';
import { oauthError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { hashSecret, newSecretToken } from '../secrets.ts';
import type { OAuthClient, OAuthGrant, OAuthRepository } from './repository.ts';

export type { OAuthClient, OAuthGrant };

const CODE_SECONDS = 60;
/** How long a user may take between /oauth/authorize and the consent form's answer. */
const CONSENT_SECONDS = 600;
const REQUEST_TYPE = 'oauth-authz-request+jwt';
const CONSENT_TYPE = 'oauth-consent+jwt';
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;


export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  scopes: Scope[];
  state: string;
  codeChallenge: string;
}

export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest; client: OAuthClient }
  /** The client or redirect URI cannot be trusted: say so on a page, never redirect. */
  | { ok: false; page: string }
  /** The client and redirect URI are good: tell the client through the redirect. */
  | { ok: false; redirect: string };

export interface TokenSet {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  scope: string;
}

/** How the client proved who it is at the token endpoint: HTTP Basic or the form's client_id/client_secret. */
export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

export interface ClientRegistration {
  name: string;
  redirectUris: string[];
  scopes?: Scope[];
  public?: boolean;
  environment?: 'test' | 'live';
}

export interface OAuthService {
  registerClient(accountId: string, input: ClientRegistration): Promise<{ client: OAuthClient; clientSecret?: string }>;
  clients(accountId: string): Promise<OAuthClient[]>;
  /** RFC 6749 §4.1.1 and §4.1.2.1: the client and redirect URI first, then the rest. */
  checkAuthorization(query: Record<string, string | undefined>): Promise<AuthorizationCheck>;
  /** The checked request, signed so the consent page can trust it without storing it. */
  sealRequest(request: AuthorizationRequest): Promise<string>;
  openRequest(sealed: string): Promise<{ request: AuthorizationRequest; client: OAuthClient } | undefined>;
  /** The consent form's token: signed, bound to the session and to the request, good for one answer. */
  consentToken(sealed: string, sessionToken: string): Promise<string>;
  /**
   * The user's answer: on approval a grant and a 60-second code; the redirect to send the browser to either way.
   * Throws `invalid_input` for a consent token that is forged, stale, of another session or used.
   */
  answer(input: { sealed: string; consent: string; sessionToken: string; user: { id: string; accountId: string }; approve: boolean }): Promise<{ redirect: string; client: OAuthClient; grant?: OAuthGrant }>;
  exchangeCode(client: ClientCredentials, input: { code?: string; redirectUri?: string; codeVerifier?: string }): Promise<TokenSet>;
  refresh(client: ClientCredentials, input: { refreshToken?: string; scope?: string }): Promise<TokenSet>;
  /** RFC 7009: revokes the grant behind a refresh or access token of this client; unknown tokens are ignored. */
  revokeToken(client: ClientCredentials, token: string): Promise<void>;
  grants(accountId: string): Promise<OAuthGrant[]>;
  /** Throws `not_found` for another account's grant. */
  revokeGrant(accountId: string, grantId: string): Promise<OAuthGrant>;
  metadata(): Record<string, unknown>;
}

export interface OAuthServiceDeps {
  repository: OAuthRepository;
  keyring: Keyring;
  credentials: Credentials;
  issuer: string;
  now?: () => Date;
}

/** A redirect URI kyx accepts at registration: https, or http on the loopback interface (RFC 8252); no fragment. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `${uri} has a fragment`;
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return `${uri} must use https (http only on localhost)`;
  if (uri.length > 2000) return `${uri} is longer than 2000 characters`;
  return null;
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** Registers a client of the account: the secret (confidential clients) is returned once and stored hashed. */
export async function registerClient(
  repository: OAuthRepository,
  accountId: string,
  input: ClientRegistration,
  now = new Date(),
): Promise<{ client: OAuthClient; clientSecret?: string }> {
  const problems = input.redirectUris.map(redirectUriProblem).filter((problem): problem is string => problem !== null);
  if (input.redirectUris.length === 0) problems.push('at least one redirect URI is required');
  if (!input.name.trim() || input.name.length > 200) problems.push('name must be 1 to 200 characters');
  if (problems.length) throw DomainError.invalid(problems.map((message) => ({ path: '/redirectUris', message })));
  const clientSecret = input.public ? undefined : newSecretToken();
  const client = await repository.insertClient({
    id: newId('oac'),
    account_id: accountId,
    name: input.name.trim(),
    type: input.public ? 'public' : 'confidential',
    secret_hash: clientSecret ? hashSecret(clientSecret) : null,
    redirect_uris: JSON.stringify([...new Set(input.redirectUris)]),
    scopes: JSON.stringify(input.scopes?.length ? input.scopes : [...SCOPES]),
    environment: input.environment ?? 'live',
    created_at: now.toISOString(),
    revoked_at: null,
  });
  return { client, clientSecret };
}

export function createOAuthService(deps: OAuthServiceDeps): OAuthService {
  const { repository, keyring, credentials, issuer } = deps;
  const now = deps.now ?? (() => new Date());

  credentials.acceptGrants(async (grantId) => {
    const grant = await repository.grant(grantId);
    if (!grant || grant.revokedAt) return undefined;
    return { accountId: grant.accountId, environment: grant.environment, scopes: grant.scopes };
  });

  async function authenticateClient({ clientId, clientSecret }: ClientCredentials): Promise<OAuthClient> {
    const client = clientId ? await repository.client(clientId) : undefined;
    if (!client) throw oauthError('invalidClient', 'Unknown client');
    if (client.type === 'public') return client;
    const sent = Buffer.from(hashSecret(clientSecret ?? ''));
    if (!client.secretHash || !timingSafeEqual(sent, Buffer.from(client.secretHash))) throw oauthError('invalidClient', 'The client secret is wrong');
    return client;
  }

  async function issueTokens(grant: OAuthGrant, clientId: string, scopes: Scope[]): Promise<TokenSet> {
    const refreshToken = newSecretToken();
    await repository.insertRefreshToken({ token_hash: hashSecret(refreshToken), grant_id: grant.grantId, client_id: clientId, created_at: now().toISOString(), used_at: null });
    const access = await credentials.mintGrantToken({ grantId: grant.grantId, accountId: grant.accountId, environment: grant.environment, scopes, clientId });
    return { ...access, refreshToken, scope: scopes.join(' ') };
  }

  /** A grant that is still standing, of this client; a replayed code or refresh token revokes it first. */
  async function standingGrant(grantId: string, clientId: string): Promise<OAuthGrant> {
    const grant = await repository.grant(grantId);
    if (!grant || grant.revokedAt || grant.clientId !== clientId) throw oauthError('invalidGrant', 'The grant was revoked');
    return grant;
  }

  return {
    registerClient: (accountId, input) => registerClient(repository, accountId, input, now()),

    clients: (accountId) => repository.clientsOf(accountId),

    async checkAuthorization(query) {
      const client = query.client_id ? await repository.client(query.client_id) : undefined;
      if (!client) return { ok: false, page: 'The application asking for access is not registered with this service.' };
      const redirectUri = query.redirect_uri;
      // Exact string comparison: no prefix, case or path leeway (RFC 9700 §4.1.3).
      if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
        return { ok: false, page: 'The address the application wants to send you back to is not registered for it.' };
      }
      const refuse = (error: string, description: string) => ({
        ok: false as const,
        redirect: withParams(redirectUri, { error, error_description: description, state: query.state, iss: issuer }),
      });
      if (query.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
      if (!query.state) return refuse('invalid_request', 'state is required');
      if (!query.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)) return refuse('invalid_request', 'a PKCE code_challenge (S256) is required');
      if (query.code_challenge_method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');
      const requested = query.scope === undefined ? client.scopes : query.scope.split(' ').filter(Boolean);
      if (requested.length === 0 || requested.some((scope) => !isScope(scope) || !client.scopes.includes(scope))) {
        return refuse('invalid_scope', `the client may ask for: ${client.scopes.join(' ')}`);
      }
      return { ok: true, client, request: { clientId: client.clientId, redirectUri, scopes: requested as Scope[], state: query.state, codeChallenge: query.code_challenge } };
    },

    sealRequest: (request) => keyring.sign({ ...request }, { issuer, expiresInSeconds: CONSENT_SECONDS, typ: REQUEST_TYPE }),

    async openRequest(sealed) {
      try {
        const payload = await keyring.verify(sealed, { issuer, typ: REQUEST_TYPE });
        const request = payload as unknown as AuthorizationRequest;
        const client = await repository.client(request.clientId);
        return client ? { request, client } : undefined;
      } catch {
        return undefined;
      }
    },

    consentToken: (sealed, sessionToken) =>
      keyring.sign({ sid: hashSecret(sessionToken), req: hashSecret(sealed) }, { issuer, expiresInSeconds: CONSENT_SECONDS, typ: CONSENT_TYPE, jti: newId('ocs') }),

    async answer({ sealed, consent, sessionToken, user, approve }) {
      const opened = await this.openRequest(sealed);
      let claims;
      try {
        claims = await keyring.verify(consent, { issuer, typ: CONSENT_TYPE, requiredClaims: ['jti'] });
      } catch {
        claims = undefined;
      }
      if (!opened || !claims || claims.sid !== hashSecret(sessionToken) || claims.req !== hashSecret(sealed)) {
        throw DomainError.invalid([{ path: '/consent', message: 'the consent form expired or belongs to another session; start again from the application' }]);
      }
      const { request, client } = opened;
      if (client.accountId !== user.accountId) throw new DomainError('not_found', 'This application is not registered for your account');
      if (!approve) return { redirect: withParams(request.redirectUri, { error: 'access_denied', state: request.state, iss: issuer }), client };
      const code = newSecretToken();
      const at = now();
      const grant: OAuthGrant = {
        grantId: newId('ogr'),
        accountId: client.accountId,
        clientId: client.clientId,
        userId: user.id,
        scopes: request.scopes,
        environment: client.environment,
        createdAt: at.toISOString(),
        revokedAt: null,
      };
      try {
        await repository.transaction((trx) =>
          repository.insertGrant(
            trx,
            {
              id: grant.grantId,
              account_id: grant.accountId,
              client_id: grant.clientId,
              user_id: grant.userId,
              scopes: JSON.stringify(grant.scopes),
              environment: grant.environment,
              consent_id: String(claims.jti),
              created_at: grant.createdAt,
              revoked_at: null,
            },
            {
              code_hash: hashSecret(code),
              grant_id: grant.grantId,
              client_id: client.clientId,
              redirect_uri: request.redirectUri,
              code_challenge: request.codeChallenge,
              expires_at: new Date(at.getTime() + CODE_SECONDS * 1000).toISOString(),
              used_at: null,
            },
          ),
        );
      } catch {
        // the unique consent id: this form was answered already
        throw DomainError.invalid([{ path: '/consent', message: 'this consent form was answered already' }]);
      }
      return { redirect: withParams(request.redirectUri, { code, state: request.state, iss: issuer }), client, grant };
    },

    async exchangeCode(credentialsOfClient, { code, redirectUri, codeVerifier }) {
      const client = await authenticateClient(credentialsOfClient);
      const stored = code ? await repository.code(hashSecret(code)) : undefined;
      if (!stored || stored.client_id !== client.clientId) throw oauthError('invalidGrant', 'The authorization code is not valid for this client');
      if (!(await repository.spendCode(stored.code_hash, now().toISOString()))) {
        // A replayed code: whoever holds it is not to be trusted, so the tokens issued from it stop working too.
        await repository.revokeGrant(stored.grant_id, now().toISOString());
        throw oauthError('invalidGrant', 'The authorization code was used already; the grant is revoked');
      }
      if (stored.expires_at <= now().toISOString()) throw oauthError('invalidGrant', 'The authorization code expired');
      if (redirectUri !== stored.redirect_uri) throw oauthError('invalidGrant', 'redirect_uri differs from the authorization request');
      const challenge = codeVerifier && VERIFIER.test(codeVerifier) ? createHash('sha256').update(codeVerifier).digest('base64url') : null;
      if (challenge !== stored.code_challenge) throw oauthError('invalidGrant', 'The PKCE code_verifier does not match');
      const grant = await standingGrant(stored.grant_id, client.clientId);
      return issueTokens(grant, client.clientId, grant.scopes);
    },

    async refresh(credentialsOfClient, { refreshToken, scope }) {
      const client = await authenticateClient(credentialsOfClient);
      const stored = refreshToken ? await repository.refreshToken(hashSecret(refreshToken)) : undefined;
      if (!stored || stored.client_id !== client.clientId) throw oauthError('invalidGrant', 'The refresh token is not valid for this client');
      const grant = await standingGrant(stored.grant_id, client.clientId);
      const scopes = scope === undefined ? grant.scopes : scope.split(' ').filter(Boolean);
      if (scopes.length === 0 || scopes.some((one) => !grant.scopes.includes(one as Scope))) throw oauthError('invalidScope', 'A refresh cannot widen the granted scopes');
      if (!(await repository.spendRefreshToken(stored.token_hash, now().toISOString()))) {
        // Refresh tokens rotate: a second use means two parties hold it, so the whole grant goes.
        await repository.revokeGrant(grant.grantId, now().toISOString());
        throw oauthError('invalidGrant', 'The refresh token was used already; the grant is revoked');
      }
      return issueTokens(grant, client.clientId, scopes as Scope[]);
    },

    async revokeToken(credentialsOfClient, token) {
      const client = await authenticateClient(credentialsOfClient);
      const refresh = await repository.refreshToken(hashSecret(token));
      const grantId = refresh ? refresh.client_id === client.clientId && refresh.grant_id : await credentials.grantOfToken(token).then((found) => found?.clientId === client.clientId && found.grantId);
      if (grantId) await repository.revokeGrant(grantId, now().toISOString());
    },

    grants: (accountId) => repository.grantsOf(accountId),

    async revokeGrant(accountId, grantId) {
      const grant = await repository.grant(grantId);
      if (!grant || grant.accountId !== accountId) throw new DomainError('not_found', 'No such grant');
      await repository.revokeGrant(grantId, now().toISOString());
      return (await repository.grant(grantId))!;
    },

    metadata: () => ({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/auth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [...SCOPES],
      authorization_response_iss_parameter_supported: true,
    }),
  };
}
