import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL } from '../helpers/app.ts';
import { kyx } from '../helpers/cli.ts';
import { dropPostgresSchema } from '../../src/storage/database.ts';

const stores: { dataDir: string; schema: string }[] = [];

/** The environment of a store of its own: each test starts from nothing, whatever order the tests run in. */
function storeEnv() {
  const store = { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-cli-')), schema: `kyx_t_${randomBytes(6).toString('hex')}` };
  stores.push(store);
  return { KYX_DATA_DIR: store.dataDir, DATABASE_URL: POSTGRES_URL, KYX_DATABASE_SCHEMA: POSTGRES_URL ? store.schema : undefined };
}

afterAll(async () => {
  for (const { dataDir, schema } of stores) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (POSTGRES_URL) await dropPostgresSchema(POSTGRES_URL, schema);
  }
});

// Commands whose outcome does not depend on what the store holds share one store.
const env = storeEnv();

describe('kyx CLI', () => {
  it('migrate, accounts create, keys create|list|revoke with --json', () => {
    // a store of its own: migrate must find it empty
    const env = storeEnv();
    const migrate = kyx(['migrate', '--json'], env);
    expect(migrate.status).toBe(0);
    expect(migrate.json().applied).toContain('001_accounts');

    const account = kyx(['accounts', 'create', '--name', 'Acme', '--plan', 'growth', '--daily-cap', '10', '--monthly-quota', '20', '--json'], env);
    expect(account.status).toBe(0);
    const { accountId } = account.json();
    expect(accountId).toMatch(/^acct_/);

    const created = kyx(['keys', 'create', '--account', accountId, '--env', 'live', '--scopes', 'kyc:write,kyc:read', '--json'], env);
    expect(created.status).toBe(0);
    const { keyId, key } = created.json();
    expect(keyId).toMatch(/^key_/);
    expect(key).toMatch(/^svc_live_sk_/);

    const listed = kyx(['keys', 'list', '--account', accountId, '--json'], env).json().keys;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: keyId, environment: 'live', scopes: ['kyc:write', 'kyc:read'], revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(key.slice(12));

    const revoked = kyx(['keys', 'revoke', keyId, '--json'], env);
    expect(revoked.status).toBe(0);
    expect(revoked.json()).toEqual({ revoked: true, keyId });
    expect(kyx(['keys', 'list', '--json'], env).json().keys.find((k: { id: string }) => k.id === keyId).revokedAt).not.toBeNull();
  });

  it.each([
    [['accounts', 'create', '--plan', 'growth'], /--name is required/],
    [['accounts', 'create', '--name', 'A', '--plan', 'gold'], /unknown plan "gold"/],
    [['accounts', 'create', '--name', 'A', '--plan', 'micro', '--daily-cap', '0'], /--daily-cap must be an integer greater than 0/],
    [['keys', 'create', '--account', 'acct_x', '--env', 'staging'], /--env must be test or live/],
    [['keys', 'create', '--account', 'acct_x', '--env', 'test', '--scopes', 'kyc:write,root'], /unknown scope\(s\): root/],
    [['keys', 'create', '--account', 'acct_missing', '--env', 'test'], /no account acct_missing/],
    [['frobnicate'], /unknown command/],
    [['accounts', 'create', '--bogus'], /Unknown option '--bogus'/],
  ])('usage error %j exits 2 with a clear message', (args, message) => {
    const run = kyx(args as string[], env);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it.each([['--help'], ['-h'], ['help']])('kyx %s prints every command\'s usage on stdout and exits 0', (flag) => {
    const run = kyx([flag], env);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^usage:/);
    for (const command of ['serve', 'keys create', 'lists status', 'bundle verify']) expect(run.stdout).toContain(`kyx ${command}`);
  });

  it.each([
    [['keys', 'create', '--help'], /^kyx keys create --account/],
    [['lists', 'status', '-h'], /^kyx lists status/],
    [['help', 'lists', 'import'], /^kyx lists import PATH/],
    [['lists', '--help'], /^kyx lists import[^]*\nkyx lists status/],
  ])('%j prints that usage on stdout and exits 0', (args, usage) => {
    const run = kyx(args, env);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(usage);
  });

  it('an unknown command after help exits 2', () => {
    const run = kyx(['help', 'frobnicate'], env);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('revoking an unknown key fails with a non-zero exit', () => {
    const run = kyx(['keys', 'revoke', 'key_doesnotexist', '--json'], env);
    expect(run.status).toBe(1);
    expect(run.json()).toMatchObject({ revoked: false, error: 'not_found' });
  });
});
