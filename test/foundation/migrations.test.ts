// Upgrading a database: each module numbers its migrations in its own range, so a module's new migration sorts
// before another module's older ones. A database migrated before it existed must still take it.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allMigrations } from '../../src/bootstrap.ts';
import { dropPostgresSchema, openStorage } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { POSTGRES_URL } from '../helpers/app.ts';

describe('migrations on an existing database', () => {
  it("applies a module's new migration that sorts before migrations already run, and only that one", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kyx-migrate-'));
    const schema = `kyx_m_${randomBytes(6).toString('hex')}`;
    const storage = await openStorage({ dataDir, databaseUrl: POSTGRES_URL, databaseSchema: POSTGRES_URL ? schema : undefined });
    try {
      const every = allMigrations(storage.dialect);
      const names = Object.keys(every).sort();
      // webhooks' 111 came after idempotency 120, users 130 and oauth 140 had run on deployed databases
      const late = '111_webhook_retry_from';
      expect(names.filter((name) => name > late).length).toBeGreaterThan(0);
      const before = Object.fromEntries(Object.entries(every).filter(([name]) => name !== late));
      expect((await migrateToLatest(storage, before)).applied).toEqual(names.filter((name) => name !== late));
      expect((await migrateToLatest(storage, every)).applied).toEqual([late]);
      expect((await migrateToLatest(storage, every)).applied).toEqual([]);
    } finally {
      await storage.close();
      if (POSTGRES_URL) await dropPostgresSchema(POSTGRES_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
