import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import { DOMAINS } from '../domains.ts';
import type { Dialect, Storage } from './database.ts';

/** Every domain owns its migrations; their names sort in the order they must run. */
function allMigrations(dialect: Dialect): Record<string, Migration> {
  return Object.assign({}, ...DOMAINS.map((domain) => domain.migrations?.(dialect) ?? {}));
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(storage: Storage): Promise<MigrationReport> {
  const provider: MigrationProvider = { getMigrations: async () => allMigrations(storage.dialect) };
  // Explicit on Postgres: otherwise Kysely may find its bookkeeping tables in another schema of the database.
  const migrator = new Migrator({ db: storage.db, provider, migrationTableSchema: storage.schema });
  const { error, results } = await storage.withSchemaLock(() => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
