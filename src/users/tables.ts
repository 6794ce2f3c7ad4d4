export const ROLES = ['admin', 'analyst', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** A person of one account who signs in to the dashboard. */
export interface UsersTable {
  id: string;
  account_id: string;
  /** Lower case; unique across accounts, since sign-in asks for nothing else. */
  email: string;
  role: Role;
  /** `invited` until the set-up link is used. */
  status: 'invited' | 'active' | 'disabled';
  password_hash: string | null;
  /** SHA-256 hex of the single-use set-up token; null once used. */
  setup_token_hash: string | null;
  setup_expires_at: string | null;
  /** Base32 TOTP secret (RFC 6238); set while enrolling, in force once `totp_enabled_at` is. */
  totp_secret: string | null;
  totp_enabled_at: string | null;
  /** The 30-second step of the last code accepted: a code works once. */
  totp_last_step: number | null;
  created_at: string;
  updated_at: string;
}

/** Server-side sessions: the cookie holds a random token, the table only its hash, so a stolen table signs nobody in. */
export interface UserSessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  /** Sent back in every state-changing request (form field `_csrf` or header `X-CSRF-Token`). */
  csrf_token: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** Who did what, when and from where, in an account's dashboard. */
export interface AuditLogTable {
  id: string;
  account_id: string;
  at: string;
  /** `usr_…` */
  actor: string;
  actor_email: string;
  action: string;
  /** The id acted on (`key_…`, `chk_…`, `usr_…`), if any. */
  target: string | null;
  ip: string | null;
  /** JSON object of facts about the action (never prompts or document data). */
  details: string;
}

export interface UserTables {
  users: UsersTable;
  user_sessions: UserSessionsTable;
  audit_log: AuditLogTable;
}

declare module '../storage/schema.ts' {
  interface Database extends UserTables {}
}
