import type { Kysely, Migration } from 'kysely';

export function oauthMigrations(): Record<string, Migration> {
  return {
    '140_oauth': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('oauth_clients')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('secret_hash', 'text')
          .addColumn('redirect_uris', 'text', (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema.createIndex('oauth_clients_account').on('oauth_clients').column('account_id').execute();
        await db.schema
          .createTable('oauth_grants')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id'))
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('consent_id', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema.createIndex('oauth_grants_account').on('oauth_grants').columns(['account_id', 'created_at']).execute();
        await db.schema
          .createTable('oauth_codes')
          .addColumn('code_hash', 'text', (c) => c.primaryKey())
          .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id'))
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('redirect_uri', 'text', (c) => c.notNull())
          .addColumn('code_challenge', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .execute();
        await db.schema
          .createTable('oauth_refresh_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id'))
          .addColumn('client_id', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .execute();
      },
    },
  };
}
