import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Storage } from './database.ts';

export interface MigrationReport {
  applied: string[];
}

/**
 * Applies `migrations` (named so that they sort in the order they must run) that have not run yet. Each module numbers
 * its migrations in its own range (reports 050–059, webhooks 110–119…), so a module's next migration sorts before
 * another module's older ones: on an existing database it runs after them, which is safe because a module's
 * migrations touch only its own tables.
 */
export async function migrateToLatest(storage: Storage, migrations: Record<string, Migration>): Promise<MigrationReport> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Explicit on Postgres: otherwise Kysely may find its bookkeeping tables in another schema of the database.
  const migrator = new Migrator({ db: storage.db, provider, migrationTableSchema: storage.schema, allowUnorderedMigrations: true });
  const { error, results } = await storage.withSchemaLock(() => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
