import type { Kysely, Migration } from 'kysely';
import { type Dialect, binaryColumnType } from '../storage/database.ts';

export function kycMigrations(dialect: Dialect): Record<string, Migration> {
  const bytes = binaryColumnType(dialect);
  return {
    '020_kyc_checks': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('kyc_checks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('document_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('record', 'text', (c) => c.notNull())
          .execute();
        // Serves the newest-first list (with its id tie-break) and the reuse scan of one tenant's environment.
        await db.schema.createIndex('kyc_checks_account').on('kyc_checks').columns(['account_id', 'created_at', 'id']).execute();
        await db.schema.createIndex('kyc_checks_account_env').on('kyc_checks').columns(['account_id', 'environment', 'created_at']).execute();
        await db.schema
          .createTable('kyc_images')
          .addColumn('check_id', 'text', (c) => c.notNull().references('kyc_checks.id'))
          .addColumn('account_id', 'text', (c) => c.notNull())
          .addColumn('field', 'text', (c) => c.notNull())
          .addColumn('iv', bytes, (c) => c.notNull())
          .addColumn('tag', bytes, (c) => c.notNull())
          .addColumn('ciphertext', bytes, (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('kyc_images_pk', ['check_id', 'field'])
          .execute();
      },
    },
  };
}
