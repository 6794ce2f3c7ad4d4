import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../storage/database.ts';

export function accountMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '001_accounts': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('accounts')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('plan_id', 'text', (c) => c.notNull())
          .addColumn('daily_cap_override', 'integer')
          .addColumn('monthly_quota_override', 'integer')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('api_keys')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('environment', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('display_prefix', 'text', (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('revoked_at', 'text')
          .addColumn('last_used_at', 'text')
          .execute();
        await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
        await db.schema
          .createTable('signing_keys')
          .addColumn('kid', 'text', (c) => c.primaryKey())
          .addColumn('algorithm', 'text', (c) => c.notNull())
          .addColumn('private_jwk', 'text', (c) => c.notNull())
          .addColumn('public_jwk', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('retired_at', 'text')
          .execute();
        await db.schema
          .createTable('usage_counters')
          .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
          .addColumn('bucket', 'text', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_counters_pk', ['account_id', 'bucket'])
          .execute();
        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
      },
    },
    ...(dialect === 'postgres' ? { '001_usage_counting': usageCountingProcedure } : {}),
  };
}

/**
 * Postgres without Redis counts a batch of an account's requests with `CALL count_usage(...)`: its day and month rows
 * locked in bucket order (so two instances never deadlock), as many admitted as fit under both ceilings (negative:
 * unlimited), both raised by that many. That transaction commits without waiting for the disk, so the rows are free
 * for the next batch a flush sooner; the next one writes a WAL message and commits synchronously, and flushing its
 * commit record flushes the counts too, so they are on disk before the caller hears them. today and this_month are
 * the counts before the batch, null when a row does not exist yet (nothing is counted then).
 */
const usageCountingProcedure: Migration = {
  async up(db: Kysely<any>) {
    await sql`
      CREATE PROCEDURE count_usage(
        account text, day_bucket text, month_bucket text, amount integer, per_day integer, per_month integer,
        INOUT today integer DEFAULT NULL, INOUT this_month integer DEFAULT NULL, INOUT admitted integer DEFAULT 0
      )
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        SELECT count INTO today FROM usage_counters WHERE account_id = account AND bucket = day_bucket FOR UPDATE;
        SELECT count INTO this_month FROM usage_counters WHERE account_id = account AND bucket = month_bucket FOR UPDATE;
        IF today IS NULL OR this_month IS NULL THEN
          RETURN;
        END IF;
        admitted := LEAST(
          amount,
          CASE WHEN per_day < 0 THEN amount ELSE GREATEST(0, per_day - today) END,
          CASE WHEN per_month < 0 THEN amount ELSE GREATEST(0, per_month - this_month) END
        );
        IF admitted > 0 THEN
          UPDATE usage_counters SET count = count + admitted WHERE account_id = account AND bucket IN (day_bucket, month_bucket);
        END IF;
        COMMIT;
        PERFORM pg_logical_emit_message(true, 'kyx', 'usage counted');
      END
      $$
    `.execute(db);
  },
};
