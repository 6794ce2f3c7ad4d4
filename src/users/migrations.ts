import type { Kysely, Migration } from 'kysely';

export function userMigrations(): Record<string, Migration> {
  return {
    '130_users': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('users')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('role', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('password_hash', 'text')
          .addColumn('setup_token_hash', 'text', (c) => c.unique())
          .addColumn('setup_expires_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('users_account').on('users').columns(['account_id', 'created_at']).execute();
        await db.schema
          .createTable('user_sessions')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('csrf_token', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .execute();
        await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();
        await db.schema
          .createTable('audit_log')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('actor', 'text', (c) => c.notNull())
          .addColumn('actor_email', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target', 'text')
          .addColumn('ip', 'text')
          .addColumn('details', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'at', 'id']).execute();
      },
    },
    '131_user_totp': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
        await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();
        await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
      },
    },
  };
}
