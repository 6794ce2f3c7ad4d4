/**
 * One row per Idempotency-Key of an account: claimed by the first request that carries it, then holding that
 * request's answer for 24 hours so a retry gets the same answer without the work running twice.
 */
export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** SHA-256 of method, path and body; null until the owner's body is parsed. */
  request_hash: string | null;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  /** While in flight: after this, the owner is taken for dead and the key may be claimed again. */
  locked_until: string;
  created_at: string;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

declare module '../storage/schema.ts' {
  interface Database extends IdempotencyTables {}
}
