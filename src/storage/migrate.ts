import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Storage } from './database.ts';

export interface MigrationReport {
  applied: string[];
}

/** Applies `migrations` (named so that they sort in the order they must run) that have not run yet. */
export async function migrateToLatest(storage: Storage, migrations: Record<string, Migration>): Promise<MigrationReport> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Explicit on Postgres: otherwise Kysely may find its bookkeeping tables in another schema of the database.
  const migrator = new Migrator({ db: storage.db, provider, migrationTableSchema: storage.schema });
  const { error, results } = await storage.withSchemaLock(() => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
