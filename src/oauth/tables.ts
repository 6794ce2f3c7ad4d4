/** A third-party application an operator registered for one account. */
export interface OAuthClientsTable {
  id: string;
  account_id: string;
  name: string;
  /** A public client (a browser or native app) has no secret; PKCE protects it. */
  type: 'confidential' | 'public';
  /** SHA-256 hex of the secret; null for a public client. */
  secret_hash: string | null;
  /** JSON array, compared exactly. */
  redirect_uris: string;
  /** JSON array: the most the client may be granted. */
  scopes: string;
  /** The environment of the account's data its tokens reach. */
  environment: 'test' | 'live';
  created_at: string;
  revoked_at: string | null;
}

/** A user's consent: the client may act on the account with these scopes until revoked. */
export interface OAuthGrantsTable {
  id: string;
  account_id: string;
  client_id: string;
  user_id: string;
  scopes: string;
  environment: 'test' | 'live';
  /** The consent token's id: each consent form approves once. */
  consent_id: string;
  created_at: string;
  revoked_at: string | null;
}

export interface OAuthCodesTable {
  code_hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  client_id: string;
  created_at: string;
  /** Set when the token was exchanged; a second use revokes the grant. */
  used_at: string | null;
}

export interface OAuthTables {
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
}

declare module '../storage/schema.ts' {
  interface Database extends OAuthTables {}
}
