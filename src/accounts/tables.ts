import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  plan_id: string;
  daily_cap_override: number | null;
  monthly_quota_override: number | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  environment: 'test' | 'live';
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  key_hash: string;
  display_prefix: string;
  /** JSON array of scope names. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface SigningKeysTable {
  kid: string;
  algorithm: string;
  private_jwk: string;
  public_jwk: string;
  created_at: string;
  /** When a newer key took over; the key stays in the JWKS until its last token has expired. */
  retired_at: string | null;
}

/** Durable counters: the day and month allowances (`day:2026-11-23`, `month:2026-11`) and billable meters. */
export interface UsageCountersTable {
  account_id: string;
  bucket: string;
  count: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AccountTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  signing_keys: SigningKeysTable;
  usage_counters: UsageCountersTable;
  settings: SettingsTable;
}

export type { Generated };
