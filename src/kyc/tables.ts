/** One stored KYC check. `record` holds `{result, signals}`: the public JSON and the engine's measurements. */
export interface KycChecksTable {
  id: string;
  account_id: string;
  environment: 'sandbox' | 'live';
  status: 'passed' | 'review' | 'failed';
  /** 64-bit dHash (16 hex digits) of the document image, compared across the tenant's checks for reuse. */
  document_hash: string;
  created_at: string;
  record: string;
}

/** Raw images, kept only with KYX_KEEP_IMAGES, encrypted with AES-256-GCM (KYX_IMAGE_KEY). */
export interface KycImagesTable {
  check_id: string;
  account_id: string;
  field: 'documentImage' | 'selfieImage';
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
  created_at: string;
}

export interface KycTables {
  kyc_checks: KycChecksTable;
  kyc_images: KycImagesTable;
}

declare module '../storage/schema.ts' {
  interface Database extends KycTables {}
}
