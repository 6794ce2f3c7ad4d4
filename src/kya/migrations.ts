import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage/database.ts';

export function kyaMigrations(_dialect: Dialect): Record<string, Migration> {
  return {
    '040_kya': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('kya_verifications')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('action', 'text')
          .addColumn('signatures', 'text', (c) => c.notNull())
          .addColumn('score', 'double precision')
          .addColumn('engine', 'text')
          .addColumn('prompt_sha256', 'text')
          .addColumn('prompt_length', 'integer')
          .addColumn('prompt', 'text')
          .addColumn('certificate_id', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('kya_verifications_account').on('kya_verifications').columns(['account_id', 'created_at']).execute();
        await db.schema
          .createTable('kya_certificates')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('verification_id', 'text', (c) => c.notNull().references('kya_verifications.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('alg', 'text', (c) => c.notNull())
          .addColumn('token', 'text', (c) => c.notNull())
          .addColumn('issued_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('kya_certificates_account').on('kya_certificates').column('account_id').execute();
      },
    },
  };
}
