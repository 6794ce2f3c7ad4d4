// KYA certificates: the only code that reads or writes their table (verifications go through the check store).
import type { Kysely } from 'kysely';
import type { RecordEnvironment } from '../core.ts';
import type { Database } from '../storage/schema.ts';
import type { KyaCertificate } from './schemas.ts';

export interface CertificateRepository {
  /** Stores a certificate inside the caller's transaction (the one storing its verification). */
  insert(trx: Kysely<Database>, certificate: KyaCertificate, owner: { accountId: string; verificationId: string; environment: RecordEnvironment }): Promise<void>;
  /** The tenant's certificate, or undefined (also for another tenant's id). */
  find(accountId: string, id: string): Promise<KyaCertificate | undefined>;
}

export function createCertificateRepository(db: Kysely<Database>): CertificateRepository {
  return {
    async insert(trx, certificate, owner) {
      await trx
        .insertInto('kya_certificates')
        .values({
          id: certificate.id,
          account_id: owner.accountId,
          verification_id: owner.verificationId,
          environment: owner.environment,
          alg: certificate.alg,
          token: certificate.token,
          issued_at: certificate.issuedAt,
          expires_at: certificate.expiresAt,
          record: JSON.stringify(certificate),
        })
        .execute();
    },
    async find(accountId, id) {
      const row = await db.selectFrom('kya_certificates').select('record').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      return row ? (JSON.parse(row.record) as KyaCertificate) : undefined;
    },
  };
}
