import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/app.ts';
import { closeContext, createContext } from '../../src/bootstrap.ts';
import type { AppContext } from '../../src/core.ts';
import { dropPostgresSchema } from '../../src/storage/database.ts';
import { createAccount, createApiKey } from '../../src/accounts/repository.ts';
import type { PlanId } from '../../src/accounts/plans.ts';
import { SCOPES, type Scope } from '../../src/accounts/scopes.ts';

/** Set in CI's second run: then every test app runs on PostgreSQL (+ Redis), each in a schema of its own. */
export const POSTGRES_URL = process.env.DATABASE_URL;
export const REDIS_URL = process.env.REDIS_URL;

export function warnSkipped(what: string): void {
  if (!POSTGRES_URL || !REDIS_URL) console.warn(`\n!!! SKIPPED (set DATABASE_URL and REDIS_URL to run): ${what} !!!\n`);
}

export interface Tenant {
  accountId: string;
  keyId: string;
  key: string;
  headers: { authorization: string };
}

export interface TestApp {
  app: FastifyInstance;
  context: AppContext;
  config: Config;
  tenant(options?: { plan?: PlanId; env?: 'test' | 'live'; scopes?: Scope[]; dailyCap?: number; monthlyQuota?: number }): Promise<Tenant>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Another instance over the same database and Redis namespace (a second replica). */
  sharing?: TestApp;
  /** Force a storage mode regardless of DATABASE_URL. */
  storage?: 'sqlite' | 'postgres';
  redis?: boolean;
  /** Reach Postgres or Redis at another address (a relay the test can cut) instead of DATABASE_URL / REDIS_URL. */
  databaseUrl?: string;
  redisUrl?: string;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const usePostgres = options.storage ? options.storage === 'postgres' : Boolean(POSTGRES_URL);
  const useRedis = options.redis ?? Boolean(REDIS_URL);
  const shared = options.sharing?.config;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-test-'));
  const schema = shared?.databaseSchema ?? `kyx_t_${randomBytes(6).toString('hex')}`;
  const config: Config = {
    ...loadConfig({
      KYX_DATA_DIR: dataDir,
      KYX_BASE_URL: 'http://kyx.test',
      KYX_LOG_LEVEL: 'silent',
      ...options.env,
    }),
    databaseUrl: usePostgres ? (options.databaseUrl ?? POSTGRES_URL) : undefined,
    databaseSchema: usePostgres ? schema : undefined,
    redisUrl: useRedis ? (options.redisUrl ?? REDIS_URL) : undefined,
    redisPrefix: shared?.redisPrefix ?? `kyx:test:${randomBytes(6).toString('hex')}:`,
  };
  if (usePostgres && !POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const context = await createContext(config);
  const app = await buildApp(context, { logger: false });
  await app.ready();
  return {
    app,
    context,
    config,
    async tenant({ plan = 'developer_sandbox', env = 'test', scopes, dailyCap, monthlyQuota } = {}) {
      const account = await createAccount(context.storage.db, { name: 'Test tenant', planId: plan, dailyCap, monthlyQuota });
      const { record, key } = await createApiKey(context.storage.db, {
        accountId: account.id,
        environment: env,
        scopes: scopes ?? [...SCOPES],
      });
      return { accountId: account.id, keyId: record.id, key, headers: { authorization: `Bearer ${key}` } };
    },
    async close() {
      await app.close();
      if (context.redis && !options.sharing) {
        const keys = await context.redis.keys(`${config.redisPrefix}*`);
        if (keys.length) await context.redis.del(...keys);
      }
      await closeContext(context);
      if (options.sharing) return;
      if (usePostgres && POSTGRES_URL) await dropPostgresSchema(POSTGRES_URL, schema);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the contract's error body and returns it. */
export function errorBody(response: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string) {
  const body = response.json();
  if (response.statusCode !== status || body.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${response.statusCode} ${JSON.stringify(body)}`);
  }
  if (typeof body.message !== 'string' || !/^req_/.test(body.requestId) || body.requestId !== response.headers['x-request-id']) {
    throw new Error(`error body lacks message/requestId: ${JSON.stringify(body)}`);
  }
  return body;
}
