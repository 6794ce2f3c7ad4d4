// One configuration: every variable read once, one error policy (exit 2 naming the variable), `kyx config`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readConfig } from '../../src/config.ts';
import { kyx } from '../helpers/cli.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-config-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('gives every section its defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      floodLimit: 600,
      aml: { sources: [], refreshSeconds: 300 },
      kyc: { workers: 1 },
      kyb: { budgetMs: 10_000 },
      kya: { keepPrompts: false },
      reports: { runWorker: true, workerPollMs: 500, jobLeaseMs: 30_000 },
    });
    expect(config.kyc.imageKey).toBeUndefined();
    expect(Object.keys(config.kyb.sources).sort()).toEqual(['gleif', 'vies']);
  });

  it('reads every register setting, falling back to the KYB-wide one, then to the register default', () => {
    const { kyb } = loadConfig({ KYX_KYB_TIMEOUT_MS: '900', KYX_GLEIF_TIMEOUT_MS: '300', KYX_VIES_ENABLED: 'off' });
    expect(kyb.sources.gleif).toMatchObject({ timeoutMs: 300, ratePerSecond: 1, burst: 10, maxAttempts: 3 });
    expect(kyb.sources.vies).toBeUndefined();
    expect(loadConfig({ KYX_KYB_TIMEOUT_MS: '900' }).kyb.sources.vies).toMatchObject({ timeoutMs: 900, ratePerSecond: 2 });
  });

  it.each([
    ['KYX_FLOOD_LIMIT', 'lots'],
    ['KYX_TRUST_PROXY', 'maybe'],
    ['KYX_WORKER', 'sometimes'],
    ['KYX_KYB_TIMEOUT_MS', 'fast'],
    ['KYX_GLEIF_ENABLED', 'perhaps'],
    ['KYX_KYC_WORKERS', '0'],
    ['KYX_KYA_BLOCK_THRESHOLD', '1.5'],
    ['KYX_LISTS_REFRESH_SECONDS', '-1'],
    ['PORT', '70000'],
    ['KYX_DATABASE_SCHEMA', 'kyx; DROP SCHEMA public'],
  ])('refuses %s=%s with an error naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('needs a real key when images are kept', () => {
    expect(() => loadConfig({ KYX_KEEP_IMAGES: 'on' })).toThrow(/KYX_IMAGE_KEY/);
    expect(loadConfig({ KYX_KEEP_IMAGES: 'on', KYX_IMAGE_KEY: 'ab'.repeat(32) }).kyc.imageKey).toHaveLength(32);
  });

  it('treats a value of only spaces as unset', () => {
    expect(loadConfig({ KYX_LIST_SOURCES: '  ', KYX_FLOOD_LIMIT: ' ' })).toMatchObject({ floodLimit: 600, aml: { sources: [] } });
  });

  it('hides credentials in every URL it prints: user, password and query values', () => {
    const { effective } = readConfig({
      DATABASE_URL: 'postgres://kyx:pw@db:5432/kyx?password=qs',
      KYX_LIST_SOURCES: JSON.stringify([{ name: 'un', url: ['https://u:tok@lists.test/a.xml?apikey=Z'] }]),
      KYX_GLEIF_BASE_URL: 'https://gleif.test/api?token=T',
    });
    const shown = JSON.stringify(effective);
    expect(shown).not.toMatch(/pw@|qs|tok@|apikey=Z|token=T/);
    expect(effective.find((variable) => variable.name === 'DATABASE_URL')?.value).toBe('postgres://redacted:redacted@db:5432/kyx?password=redacted');
    expect(effective.find((variable) => variable.name === 'KYX_LIST_SOURCES')?.value).toContain('https://redacted:redacted@lists.test/a.xml?apikey=redacted');
  });

  it('reads and checks every register setting, also of a register that is off', () => {
    expect(() => loadConfig({ KYX_FCA_TIMEOUT_MS: 'slow' })).toThrow(/KYX_FCA_TIMEOUT_MS/);
    expect(readConfig({}).effective.map((variable) => variable.name)).toContain('KYX_COMPANIES_HOUSE_BASE_URL');
  });

  it('remembers what it read, with secrets redacted', () => {
    const { effective } = readConfig({ KYX_FCA_API_KEY: 'fca-secret', KYX_FCA_API_EMAIL: 'ops@example.com', REDIS_URL: 'redis://:s3cret@cache:6379' });
    const byName = new Map(effective.map((variable) => [variable.name, variable]));
    expect(byName.get('KYX_FCA_API_KEY')).toMatchObject({ section: 'kyb', value: '<redacted>', source: 'environment' });
    expect(byName.get('REDIS_URL')?.value).toBe('redis://:redacted@cache:6379');
    expect(byName.get('KYX_FLOOD_LIMIT')).toMatchObject({ section: 'core', value: 600, source: 'default' });
    expect(byName.get('DATABASE_URL')).toMatchObject({ value: null, source: 'unset' });
    expect(byName.get('KYX_FCA_BASE_URL')).toMatchObject({ source: 'default' });
    expect(JSON.stringify(effective)).not.toMatch(/fca-secret|s3cret/);
  });

  it('reads no variable that README.md leaves out', () => {
    const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    // A per-register setting is documented once, as KYX_<REG>_…, on a row naming the registers and the suffixes.
    const templateRows = readme.split('\n').filter((line) => line.includes('`KYX_<'));
    const documented = (name: string) =>
      readme.includes(`\`${name}\``) ||
      templateRows.some((row) =>
        [...row.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].some(([, part]) => {
          const suffix = name.startsWith(`KYX_${part}_`) ? name.slice(`KYX_${part}`.length) : null;
          return suffix !== null && new RegExp(`\`(KYX_<[A-Z]+>)?${suffix}\``).test(row);
        }),
      );
    const { effective } = readConfig({});
    expect(effective.length).toBeGreaterThan(40);
    expect(effective.map((variable) => variable.name).filter((name) => !documented(name))).toEqual([]);
  });
});

describe('kyx and the configuration', () => {
  const env = { KYX_DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined };

  it('kyx config --json prints every section, secrets redacted', () => {
    const run = kyx(['config', '--json'], {
      ...env,
      DATABASE_URL: 'postgres://kyx:hunter2@db.internal:5432/kyx',
      KYX_COMPANIES_HOUSE_API_KEY: 'ch-secret-key',
      KYX_FLOOD_LIMIT: '50',
    });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/hunter2|ch-secret-key/);
    const variables: Array<{ section: string; name: string; value: unknown; source: string }> = run.json().variables;
    expect(new Set(variables.map((variable) => variable.section))).toEqual(new Set(['core', 'aml', 'kyc', 'kyb', 'kya', 'reports', 'workflows', 'webhooks']));
    expect(variables.find((variable) => variable.name === 'KYX_FLOOD_LIMIT')).toMatchObject({ value: 50, source: 'environment' });
    expect(variables.find((variable) => variable.name === 'DATABASE_URL')?.value).toBe('postgres://redacted:redacted@db.internal:5432/kyx');
    expect(variables.find((variable) => variable.name === 'KYX_COMPANIES_HOUSE_API_KEY')?.value).toBe('<redacted>');
  });

  it.each([
    ['KYX_KYA_REVIEW_THRESHOLD', '2'],
    ['KYX_KYB_BUDGET_MS', 'soon'],
  ])('a bad %s stops kyx serve with exit 2 and names the variable', (name, value) => {
    const run = kyx(['serve'], { ...env, PORT: '0', [name]: value });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(name);
  });
});
