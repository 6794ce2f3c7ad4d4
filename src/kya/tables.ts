/** Stored KYA verifications and the certificates issued for them. */

export interface KyaVerificationsTable {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'live';
  outcome: string;
  /** null for a 503 not_screened answer: nothing may be acted on. */
  action: string | null;
  /** JSON array of signature ids. */
  signatures: string;
  /** The model's injection score; null when no model screened the prompt. */
  score: number | null;
  engine: string | null;
  /** SHA-256 hex of the prompt's UTF-8 bytes; null when no prompt was sent (identity_only). */
  prompt_sha256: string | null;
  /** In characters (code points), as the 32,000 limit counts them; null without a prompt. */
  prompt_length: number | null;
  /** The prompt itself, only when KYX_KEEP_PROMPTS is set. */
  prompt: string | null;
  certificate_id: string | null;
  created_at: string;
  /** The public JSON of GET /api/v1/kya/verifications/{id}. */
  record: string;
}

export interface KyaCertificatesTable {
  id: string;
  account_id: string;
  verification_id: string;
  environment: 'sandbox' | 'live';
  /** EdDSA, or none for a sandbox identity_only certificate (which GET refuses). */
  alg: string;
  token: string;
  issued_at: string;
  expires_at: string;
  /** The public JSON of GET /api/v1/kya/certificate/{id}, token included. */
  record: string;
}

export interface KyaTables {
  kya_verifications: KyaVerificationsTable;
  kya_certificates: KyaCertificatesTable;
}

declare module '../storage/schema.ts' {
  interface Database extends KyaTables {}
}
