// The OAuth tables: the only code that reads or writes them.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Scope } from '../accounts/scopes.ts';
import type { OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable } from './tables.ts';

export interface OAuthClient {
  clientId: string;
  accountId: string;
  name: string;
  type: OAuthClientsTable['type'];
  secretHash: string | null;
  redirectUris: string[];
  scopes: Scope[];
  environment: OAuthClientsTable['environment'];
  createdAt: string;
  revokedAt: string | null;
}

export interface OAuthGrant {
  grantId: string;
  accountId: string;
  clientId: string;
  userId: string;
  scopes: Scope[];
  environment: OAuthGrantsTable['environment'];
  createdAt: string;
  revokedAt: string | null;
}

const toClient = (row: OAuthClientsTable): OAuthClient => ({
  clientId: row.id,
  accountId: row.account_id,
  name: row.name,
  type: row.type,
  secretHash: row.secret_hash,
  redirectUris: JSON.parse(row.redirect_uris) as string[],
  scopes: JSON.parse(row.scopes) as Scope[],
  environment: row.environment,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const toGrant = (row: OAuthGrantsTable): OAuthGrant => ({
  grantId: row.id,
  accountId: row.account_id,
  clientId: row.client_id,
  userId: row.user_id,
  scopes: JSON.parse(row.scopes) as Scope[],
  environment: row.environment,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export function createOAuthRepository(db: Kysely<Database>) {
  return {
    transaction: <T>(work: (trx: Transaction<Database>) => Promise<T>) => db.transaction().execute(work),
    async insertClient(row: OAuthClientsTable): Promise<OAuthClient> {
      await db.insertInto('oauth_clients').values(row).execute();
      return toClient(row);
    },
    async client(clientId: string): Promise<OAuthClient | undefined> {
      const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).where('revoked_at', 'is', null).executeTakeFirst();
      return row && toClient(row);
    },
    async clientsOf(accountId: string): Promise<OAuthClient[]> {
      const rows = await db.selectFrom('oauth_clients').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toClient);
    },
    async insertGrant(trx: Transaction<Database>, row: OAuthGrantsTable, code: OAuthCodesTable): Promise<void> {
      await trx.insertInto('oauth_grants').values(row).execute();
      await trx.insertInto('oauth_codes').values(code).execute();
    },
    async grant(grantId: string): Promise<OAuthGrant | undefined> {
      const row = await db.selectFrom('oauth_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
      return row && toGrant(row);
    },
    async grantsOf(accountId: string): Promise<OAuthGrant[]> {
      const rows = await db.selectFrom('oauth_grants').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id').execute();
      return rows.map(toGrant);
    },
    /** True when this call revoked it (false: unknown or revoked before). */
    async revokeGrant(grantId: string, now: string): Promise<boolean> {
      const result = await db.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    code: (codeHash: string) => db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst(),
    /** Spends the code; false when it was spent already (a replay). */
    async spendCode(codeHash: string, now: string): Promise<boolean> {
      const result = await db.updateTable('oauth_codes').set({ used_at: now }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async insertRefreshToken(row: Database['oauth_refresh_tokens']): Promise<void> {
      await db.insertInto('oauth_refresh_tokens').values(row).execute();
    },
    refreshToken: (tokenHash: string) => db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(),
    /** Spends the refresh token; false when it was spent already (a replay). */
    async spendRefreshToken(tokenHash: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('oauth_refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
