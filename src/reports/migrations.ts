import type { Kysely, Migration } from 'kysely';
import { type Dialect, binaryColumnType } from '../storage/database.ts';

export function reportMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '050_bundles_and_jobs': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('bundles')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('check_id', 'text', (c) => c.notNull())
          .addColumn('regulator_ref', 'text', (c) => c.notNull())
          .addColumn('include_types', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('failure_reason', 'text')
          .addColumn('archive_bytes', 'integer')
          .addColumn('archive_sha256', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('bundles_account').on('bundles').column('account_id').execute();
        await db.schema
          .createTable('bundle_archives')
          .addColumn('bundle_id', 'text', (c) => c.primaryKey().references('bundles.id'))
          .addColumn('data', binaryColumnType(dialect), (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('jobs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('locked_by', 'text')
          .addColumn('locked_until', 'text')
          .addColumn('run_after', 'text', (c) => c.notNull())
          .addColumn('last_error', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('jobs_claimable').on('jobs').columns(['status', 'run_after']).execute();
      },
    },
    // A check's (or a run's) page lists its bundles.
    '051_bundles_by_check': {
      async up(db: Kysely<any>) {
        await db.schema.createIndex('bundles_account_check').on('bundles').columns(['account_id', 'check_id']).execute();
      },
    },
  };
}
