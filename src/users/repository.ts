// The users, sessions and audit tables: the only code that reads or writes them.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { AuditLogTable, Role, UsersTable } from './tables.ts';

export interface User {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  status: UsersTable['status'];
  /** Whether sign-in also asks for a TOTP code. */
  twoFactor: boolean;
  createdAt: string;
}

/** What sign-in checks beyond the public user. */
export interface UserSecrets {
  passwordHash: string | null;
  totpSecret: string | null;
  totpEnabled: boolean;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  actorEmail: string;
  action: string;
  target: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

const toUser = (row: UsersTable): User => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  role: row.role,
  status: row.status,
  twoFactor: row.totp_enabled_at !== null,
  createdAt: row.created_at,
});

const toAuditEntry = (row: AuditLogTable): AuditEntry => ({
  id: row.id,
  at: row.at,
  actor: row.actor,
  actorEmail: row.actor_email,
  action: row.action,
  target: row.target,
  ip: row.ip,
  details: JSON.parse(row.details) as Record<string, unknown>,
});

export function createUsersRepository(db: Kysely<Database>) {
  return {
    async insertUser(row: UsersTable): Promise<User> {
      await db.insertInto('users').values(row).execute();
      return toUser(row);
    },
    async userByEmail(email: string): Promise<{ user: User; secrets: UserSecrets } | undefined> {
      const row = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      return row && { user: toUser(row), secrets: { passwordHash: row.password_hash, totpSecret: row.totp_secret, totpEnabled: row.totp_enabled_at !== null } };
    },
    async totpOf(userId: string): Promise<{ secret: string | null; enabled: boolean }> {
      const row = await db.selectFrom('users').select(['totp_secret', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
      return { secret: row.totp_secret, enabled: row.totp_enabled_at !== null };
    },
    async setTotp(userId: string, totp: { secret: string | null; enabledAt: string | null; step?: number }, now: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ totp_secret: totp.secret, totp_enabled_at: totp.enabledAt, totp_last_step: totp.step ?? null, updated_at: now })
        .where('id', '=', userId)
        .execute();
    },
    /** Records the step of an accepted code; false when that step or a later one was used already (a replay). */
    async acceptTotpStep(userId: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async userInAccount(accountId: string, userId: string): Promise<User | undefined> {
      const row = await db.selectFrom('users').selectAll().where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
      return row && toUser(row);
    },
    async usersOf(accountId: string): Promise<User[]> {
      const rows = await db.selectFrom('users').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toUser);
    },
    async userBySetupToken(tokenHash: string, now: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('setup_token_hash', '=', tokenHash)
        .where('setup_expires_at', '>', now)
        .where('status', '!=', 'disabled')
        .executeTakeFirst();
      return row && toUser(row);
    },
    /** Sets the password and spends the token; false when the token was spent meanwhile. */
    async completeSetup(tokenHash: string, passwordHash: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ password_hash: passwordHash, status: 'active', setup_token_hash: null, setup_expires_at: null, updated_at: now })
        .where('setup_token_hash', '=', tokenHash)
        .where('setup_expires_at', '>', now)
        .where('status', '!=', 'disabled')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async updateUser(accountId: string, userId: string, changes: Partial<Pick<UsersTable, 'role' | 'status'>>, now: string): Promise<User | undefined> {
      await db.updateTable('users').set({ ...changes, updated_at: now }).where('id', '=', userId).where('account_id', '=', accountId).execute();
      return this.userInAccount(accountId, userId);
    },
    async insertSession(row: Database['user_sessions']): Promise<void> {
      await db.insertInto('user_sessions').values(row).execute();
    },
    async liveSession(tokenHash: string, now: string) {
      return db
        .selectFrom('user_sessions')
        .innerJoin('users', 'users.id', 'user_sessions.user_id')
        .selectAll('users')
        .select(['user_sessions.csrf_token', 'user_sessions.expires_at'])
        .where('user_sessions.token_hash', '=', tokenHash)
        .where('user_sessions.revoked_at', 'is', null)
        .where('user_sessions.expires_at', '>', now)
        .where('users.status', '=', 'active')
        .executeTakeFirst()
        .then((row) => row && { user: toUser(row), csrfToken: row.csrf_token, expiresAt: row.expires_at });
    },
    async revokeSession(tokenHash: string, now: string): Promise<void> {
      await db.updateTable('user_sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
    },
    async revokeSessionsOf(userId: string, now: string): Promise<void> {
      await db.updateTable('user_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    },

    async insertAudit(row: AuditLogTable): Promise<void> {
      await db.insertInto('audit_log').values(row).execute();
    },
    /** Newest first; `before` is the (at, id) of the last entry of the previous page. */
    async auditOf(accountId: string, limit: number, before?: { at: string; id: string }): Promise<AuditEntry[]> {
      let query = db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId);
      if (before) query = query.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toAuditEntry);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
