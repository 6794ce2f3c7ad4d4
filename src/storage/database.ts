import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { type Driver, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { type Config, POSTGRES_SCHEMA_NAME } from '../config.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The Postgres schema everything lives in (search_path); undefined on SQLite. */
  schema?: string;
  /** Runs `work` while holding the database-wide schema-change lock (Postgres); directly on SQLite. */
  withSchemaLock<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// int8 (COUNT(*), BIGINT) arrives as text by default; every count we keep fits a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

export async function openStorage(config: Pick<Config, 'dataDir' | 'databaseUrl' | 'databaseSchema'>): Promise<Storage> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, config.databaseSchema) : openSqlite(config.dataDir);
}

/**
 * SQLite rolls a transaction back by itself on some errors (SQLITE_FULL: the disk or the size limit is reached);
 * Kysely's ROLLBACK then fails with "no transaction is active" and that error replaces the real one. Rolling back
 * only a transaction still open keeps the real cause, which is what tells the caller storage is full (503).
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(private readonly config: { database: BetterSqlite3.Database }) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.config.database.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

function openSqlite(dataDir: string): Storage {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new BetterSqlite3(path.join(dataDir, 'kyx.sqlite'));
  database.pragma('journal_mode = WAL');
  // FULL: a committed transaction survives power loss, which is what a 2xx promises.
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors({ database }) });
  return {
    db,
    dialect: 'sqlite',
    withSchemaLock: (work) => work(),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

async function openPostgres(connectionString: string, schema?: string): Promise<Storage> {
  if (schema) {
    if (!POSTGRES_SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // An unreachable server fails a request (503) instead of holding it until the client gives up.
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection the server closed (a restart, a failover) emits 'error', which would end the process without a
  // listener: an idle one is dropped by the pool, one in use fails its next query (503) and is dropped on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema: schema ?? 'public',
    withSchemaLock: (work) => withPostgresSchemaLock(connectionString, work),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

// Any fixed number: the key of the session-level advisory lock that serialises schema changes.
const SCHEMA_LOCK_KEY = 7_130_412;

/**
 * Holds a database-wide advisory lock while `work` runs. Migrations introspect the catalog of every schema, and a
 * schema dropped meanwhile (another instance's or another test's) makes that fail; instances starting together
 * also must not migrate side by side.
 */
async function withPostgresSchemaLock<T>(connectionString: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
    return await work();
  } finally {
    await client.end();
  }
}

/** Drops a Postgres schema made for an isolated test run. */
export async function dropPostgresSchema(connectionString: string, schema: string): Promise<void> {
  await withPostgresSchemaLock(connectionString, async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await client.end();
    }
  });
}

/** Column type for raw bytes in migrations: the one place where the two dialects' DDL differs. */
export function binaryColumnType(dialect: Dialect): 'blob' | 'bytea' {
  return dialect === 'sqlite' ? 'blob' : 'bytea';
}
