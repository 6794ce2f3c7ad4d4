import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Platform } from '../core.ts';
import { apiError, invalidRequest, oauthError } from '../http/errors.ts';
import { bearerToken } from '../http/gate.ts';
import { bearerSecurity, errorResponses } from '../http/schemas.ts';
import { escapeHtml } from '../http/html.ts';
import type { ClientCredentials, OAuthService, TokenSet } from './service.ts';

const Text = (description: string, maxLength = 2000) => Type.String({ maxLength, description });

// JSON keeps the original camelCase body (clientId and grantType required); the standard OAuth form body is
// snake_case, and unknown form parameters are ignored as RFC 6749 §3.2 asks.
const JsonTokenRequest = Type.Object(
  {
    clientId: Type.String({ minLength: 1, maxLength: 200, description: 'The client identifier; with client_credentials it becomes the token subject' }),
    grantType: Type.String({ minLength: 1, maxLength: 100, description: 'client_credentials, authorization_code or refresh_token' }),
    clientSecret: Type.Optional(Text('A confidential client’s secret (or send HTTP Basic)', 200)),
    code: Type.Optional(Text('authorization_code: the code', 200)),
    redirectUri: Type.Optional(Text('authorization_code: the redirect URI of the authorization request')),
    codeVerifier: Type.Optional(Text('authorization_code: the PKCE verifier', 200)),
    refreshToken: Type.Optional(Text('refresh_token: the refresh token', 200)),
    scope: Type.Optional(Text('refresh_token: a narrower set of the granted scopes', 1000)),
  },
  { additionalProperties: false },
);
const FormTokenRequest = Type.Object(
  {
    grant_type: Type.String({ minLength: 1, maxLength: 100 }),
    client_id: Type.Optional(Text('', 200)),
    client_secret: Type.Optional(Text('', 200)),
    code: Type.Optional(Text('', 200)),
    redirect_uri: Type.Optional(Text('')),
    code_verifier: Type.Optional(Text('', 200)),
    refresh_token: Type.Optional(Text('', 200)),
    scope: Type.Optional(Text('', 1000)),
  },
  { additionalProperties: true },
);
type TokenBody = Static<typeof JsonTokenRequest> | Static<typeof FormTokenRequest>;

const TokenResponse = Type.Object({
  accessToken: Type.String({ description: 'EdDSA-signed JWT of the tenant, limited to the granted scopes' }),
  expiresIn: Type.Integer({ description: 'Seconds until expiry' }),
  tokenType: Type.Literal('Bearer'),
  refreshToken: Type.Optional(Type.String({ description: 'authorization_code and refresh_token grants: rotates on every use' })),
  scope: Type.Optional(Type.String()),
  access_token: Type.Optional(Type.String({ description: 'RFC 6749 spelling, for OAuth client libraries' })),
  token_type: Type.Optional(Type.Literal('Bearer')),
  expires_in: Type.Optional(Type.Integer()),
  refresh_token: Type.Optional(Type.String()),
});
type TokenResponse = Static<typeof TokenResponse>;

const RevokeRequest = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 5000 }), token_type_hint: Type.Optional(Type.String({ maxLength: 50 })), client_id: Type.Optional(Text('', 200)), client_secret: Type.Optional(Text('', 200)) },
  { additionalProperties: true },
);

const AuthorizeQuery = Type.Object(
  Object.fromEntries(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'].map((name) => [name, Type.Optional(Text('', 2000))])),
  { additionalProperties: true },
);

/** A field of either spelling of the token request. */
function field(body: TokenBody, camel: keyof Static<typeof JsonTokenRequest>, snake: keyof Static<typeof FormTokenRequest>): string | undefined {
  const value = (body as Record<string, unknown>)[camel] ?? (body as Record<string, unknown>)[snake];
  return typeof value === 'string' ? value : undefined;
}

/** HTTP Basic client authentication (RFC 6749 §2.3.1: both parts form-urlencoded), else the body's fields. */
function clientCredentials(request: FastifyRequest, body: Record<string, unknown>): ClientCredentials {
  const match = /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(request.headers.authorization ?? '');
  if (match) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthError('invalidClient', 'Malformed HTTP Basic credentials');
    const unescape = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    try {
      return { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) };
    } catch {
      throw oauthError('invalidClient', 'Malformed HTTP Basic credentials');
    }
  }
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
  return { clientId: text('clientId') ?? text('client_id'), clientSecret: text('clientSecret') ?? text('client_secret') };
}

const tokenAnswer = (tokens: TokenSet): TokenResponse => ({
  accessToken: tokens.accessToken,
  expiresIn: tokens.expiresIn,
  tokenType: 'Bearer',
  refreshToken: tokens.refreshToken,
  scope: tokens.scope,
  access_token: tokens.accessToken,
  token_type: 'Bearer',
  expires_in: tokens.expiresIn,
  refresh_token: tokens.refreshToken,
});

function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Authorization error · kyx</title><link rel="stylesheet" href="/dashboard/assets/app.css"></head><body><main id="main"><h1>This authorization request cannot go on</h1><p>${escapeHtml(message)}</p><p>Nothing was shared. Go back to the application and tell its makers.</p></main></body></html>`;
}

export async function oauthRoutes(app: FastifyInstance, { platform, service: oauth }: { platform: Platform; service: OAuthService }): Promise<void> {
  await app.register(formbody);

  app.post<{ Body: TokenBody }>(
    '/auth/token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Tokens: client_credentials (an API key as Bearer), authorization_code with PKCE, refresh_token (rotating)',
        description: 'JSON (camelCase) or the standard form-encoded OAuth body. OAuth grant errors carry RFC 6749 `error`.',
        security: bearerSecurity,
        body: { content: { 'application/json': { schema: JsonTokenRequest }, 'application/x-www-form-urlencoded': { schema: FormTokenRequest } } },
        response: { 200: TokenResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply): Promise<TokenResponse> => {
      reply.header('Cache-Control', 'no-store');
      const body = request.body;
      if (typeof body !== 'object' || body === null) throw invalidRequest([{ path: 'body', message: 'is required' }]);
      const grantType = field(body, 'grantType', 'grant_type');
      const clientId = field(body, 'clientId', 'client_id');
      switch (grantType) {
        case 'client_credentials': {
          const bearer = bearerToken(request);
          const principal = bearer ? await platform.credentials.authenticate(bearer) : null;
          if (!principal) throw apiError('unauthorized', 'Send an API key as Authorization: Bearer <key>');
          if (principal.via !== 'api_key') throw apiError('unauthorized', 'This operation needs an API key');
          if (!clientId) throw apiError('invalidRequest', 'client_id is required', { errors: [{ path: 'body/client_id', message: 'is required' }] });
          return { ...(await platform.credentials.mintToken(principal, clientId)), tokenType: 'Bearer' };
        }
        case 'authorization_code':
          return tokenAnswer(
            await oauth.exchangeCode(clientCredentials(request, body), {
              code: field(body, 'code', 'code'),
              redirectUri: field(body, 'redirectUri', 'redirect_uri'),
              codeVerifier: field(body, 'codeVerifier', 'code_verifier'),
            }),
          );
        case 'refresh_token':
          return tokenAnswer(await oauth.refresh(clientCredentials(request, body), { refreshToken: field(body, 'refreshToken', 'refresh_token'), scope: field(body, 'scope', 'scope') }));
        default:
          throw oauthError('unsupportedGrantType', 'grant_type must be client_credentials, authorization_code or refresh_token');
      }
    },
  );

  app.post<{ Body: Static<typeof RevokeRequest> }>(
    '/oauth/revoke',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke a refresh or access token of the client, and the grant behind it (RFC 7009); 200 also for an unknown token',
        consumes: ['application/x-www-form-urlencoded'],
        body: RevokeRequest,
        response: { 200: Type.Object({}), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      await oauth.revokeToken(clientCredentials(request, request.body), request.body.token);
      return {};
    },
  );

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/oauth/authorize',
    { schema: { tags: ['auth'], summary: 'Start the authorization code grant (PKCE S256 and state required): consent in the dashboard', querystring: AuthorizeQuery } },
    async (request, reply) => {
      const checked = await oauth.checkAuthorization(request.query);
      reply.header('Cache-Control', 'no-store');
      if (checked.ok) return reply.redirect(`/dashboard/oauth/consent?request=${await oauth.sealRequest(checked.request)}`, 303);
      if ('redirect' in checked) return reply.redirect(checked.redirect, 303);
      // A person in a browser reads a page; anything else gets the contract's body. Neither is a redirect.
      if (!(request.headers.accept ?? '').includes('text/html')) throw apiError('invalidRequest', checked.page, { errors: [{ path: 'querystring', message: checked.page }] });
      return reply.code(400).header('Content-Security-Policy', "default-src 'none'; style-src 'self'").type('text/html; charset=utf-8').send(errorPage(checked.page));
    },
  );

  app.get('/.well-known/oauth-authorization-server', { schema: { tags: ['auth'], summary: 'Authorization server metadata (RFC 8414)' } }, async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return oauth.metadata();
  });
}
