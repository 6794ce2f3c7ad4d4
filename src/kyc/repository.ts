// KYC's own rows beside the check row: kept images and the document hashes compared for reuse.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { ImageField } from './index.ts';
import type { SealedImage } from './images-at-rest.ts';

export interface KycRepository {
  /** Ids and document hashes of the tenant's latest live checks, newest first. */
  latestLiveDocumentHashes(accountId: string, limit: number): Promise<Array<{ id: string; document_hash: string }>>;
  /** Stores sealed images of a check inside the caller's transaction. */
  insertImages(trx: Kysely<Database>, checkId: string, accountId: string, createdAt: string, images: Array<{ field: ImageField; sealed: SealedImage }>): Promise<void>;
}

export function createKycRepository(db: Kysely<Database>): KycRepository {
  return {
    latestLiveDocumentHashes: (accountId, limit) =>
      db
        .selectFrom('kyc_checks')
        .select(['id', 'document_hash'])
        .where('account_id', '=', accountId)
        .where('environment', '=', 'live')
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute(),
    async insertImages(trx, checkId, accountId, createdAt, images) {
      await trx
        .insertInto('kyc_images')
        .values(images.map(({ field, sealed }) => ({ check_id: checkId, account_id: accountId, field, ...sealed, created_at: createdAt })))
        .execute();
    },
  };
}
