// kyx users create: a user of an account and the single-use set-up link, from the operator's shell; the link
// then works in the dashboard of a server over the same storage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../../src/storage/database.ts';
import { buildApp } from '../../src/app.ts';
import { closeContext, createContext } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { POSTGRES_URL } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { Browser, PASSWORD } from '../helpers/dashboard.ts';

describe('kyx users create', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-users-'));
  const schema = `kyx_t_${randomBytes(6).toString('hex')}`;
  const env = { KYX_DATA_DIR: dataDir, KYX_BASE_URL: 'https://kyx.example', DATABASE_URL: POSTGRES_URL, KYX_DATABASE_SCHEMA: POSTGRES_URL ? schema : undefined };
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (POSTGRES_URL) await dropPostgresSchema(POSTGRES_URL, schema);
  });

  it('prints the user id and a set-up link under KYX_BASE_URL that signs the user in once used', async () => {
    const accountId = kyx(['accounts', 'create', '--name', 'Users Co', '--plan', 'micro', '--json'], env).json().accountId;
    const created = kyx(['users', 'create', '--account', accountId, '--email', 'Ops@Users.example', '--role', 'analyst', '--json'], env);
    expect(created.status).toBe(0);
    const { userId, setupUrl } = created.json();
    expect(userId).toMatch(/^usr_/);
    expect(setupUrl).toMatch(/^https:\/\/kyx\.example\/dashboard\/setup\/[A-Za-z0-9_-]{43}$/);

    // a server over the storage the CLI wrote
    const context = await createContext(loadConfig({ ...env, KYX_LOG_LEVEL: 'silent' }));
    const t = { app: await buildApp(context, { logger: false }) };
    try {
      const browser = new Browser(t);
      const setupPath = new URL(setupUrl).pathname;
      const done = await browser.submit(setupPath, setupPath, { password: PASSWORD, confirm: PASSWORD });
      expect(done.statusCode).toBe(303);
      expect((await browser.signIn('ops@users.example')).statusCode).toBe(303);
      expect((await browser.get('/dashboard')).body).toContain('ops@users.example · analyst');
    } finally {
      await t.app.close();
      await closeContext(context);
    }
  });

  it('refuses an unknown role, an unknown account and a taken email with exit code 2', () => {
    const accountId = kyx(['accounts', 'create', '--name', 'Users Co 2', '--plan', 'micro', '--json'], env).json().accountId;
    expect(kyx(['users', 'create', '--account', accountId, '--email', 'a@users.example', '--role', 'owner'], env).status).toBe(2);
    expect(kyx(['users', 'create', '--account', 'acct_missing', '--email', 'a@users.example', '--role', 'viewer'], env).status).toBe(2);
    expect(kyx(['users', 'create', '--account', accountId, '--email', 'b@users.example', '--role', 'viewer'], env).status).toBe(0);
    const taken = kyx(['users', 'create', '--account', accountId, '--email', 'B@users.example', '--role', 'viewer'], env);
    expect(taken.status).toBe(2);
    expect(taken.stderr).toContain('A user with this email exists');
  });
});
