import type { CliCommand } from '../cli/command.ts';
import { UsageError, optionalPositiveInteger, requiredString, withStorage } from '../cli/command.ts';
import { PLAN_IDS, isPlanId } from './plans.ts';
import { SCOPES, isScope } from './scopes.ts';

// What a command runs is imported when it runs: `kyx --help` and the other commands do not load it.
const repository = () => import('./repository.ts');

export const accountCommands: CliCommand[] = [
  {
    name: 'migrate',
    usage: 'kyx migrate [--json]',
    async run(_args, io) {
      const { dialect, applied } = await io.migrate();
      io.result({ dialect, applied }, applied.length ? `applied ${applied.join(', ')}` : 'schema is up to date');
    },
  },
  {
    name: 'accounts create',
    usage: `kyx accounts create --name NAME --plan PLAN [--daily-cap N] [--monthly-quota N] [--json]\n  plans: ${PLAN_IDS.join(', ')}`,
    options: { name: { type: 'string' }, plan: { type: 'string' }, 'daily-cap': { type: 'string' }, 'monthly-quota': { type: 'string' } },
    async run({ values }, io) {
      const name = requiredString(values, 'name');
      const plan = requiredString(values, 'plan');
      if (!isPlanId(plan)) throw new UsageError(`unknown plan "${plan}" (one of ${PLAN_IDS.join(', ')})`);
      const dailyCap = optionalPositiveInteger(values, 'daily-cap');
      const monthlyQuota = optionalPositiveInteger(values, 'monthly-quota');
      const { createAccount } = await repository();
      const account = await withStorage(io, (s) => createAccount(s.db, { name, planId: plan, dailyCap, monthlyQuota }));
      io.result({ accountId: account.id }, `created account ${account.id} (${plan})`);
    },
  },
  {
    name: 'keys create',
    usage: `kyx keys create --account ID --env test|live [--scopes a,b] [--json]\n  scopes: ${SCOPES.join(' ')}`,
    options: { account: { type: 'string' }, env: { type: 'string' }, scopes: { type: 'string' } },
    async run({ values }, io) {
      const accountId = requiredString(values, 'account');
      const environment = requiredString(values, 'env');
      if (environment !== 'test' && environment !== 'live') throw new UsageError('--env must be test or live');
      const requested = typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [...SCOPES];
      const unknown = requested.filter((s) => !isScope(s));
      if (unknown.length) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}`);
      if (requested.length === 0) throw new UsageError('--scopes names no scope');
      const { createApiKey, findAccount } = await repository();
      const created = await withStorage(io, async (s) => {
        if (!(await findAccount(s.db, accountId))) throw new UsageError(`no account ${accountId}`);
        return createApiKey(s.db, { accountId, environment, scopes: requested.filter(isScope) });
      });
      io.result(
        { keyId: created.record.id, key: created.key },
        `created ${environment} key ${created.record.id}\n${created.key}\n(shown once: it is stored only as a hash)`,
      );
    },
  },
  {
    name: 'keys list',
    usage: 'kyx keys list [--account ID] [--json]',
    options: { account: { type: 'string' } },
    async run({ values }, io) {
      const { listApiKeys } = await repository();
      const keys = await withStorage(io, (s) => listApiKeys(s.db, typeof values.account === 'string' ? values.account : undefined));
      io.result(
        { keys },
        keys
          .map((k) => `${k.id}  ${k.displayPrefix}…  ${k.environment}  ${k.accountId}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  last used ${k.lastUsedAt ?? 'never'}`)
          .join('\n') || 'no keys',
      );
    },
  },
  {
    name: 'keys revoke',
    usage: 'kyx keys revoke KEY_ID [--json]',
    positionals: ['KEY_ID'],
    async run({ positionals }, io) {
      const keyId = positionals[0];
      if (!keyId) throw new UsageError('KEY_ID is required');
      const { revokeApiKey } = await repository();
      const found = await withStorage(io, (s) => revokeApiKey(s.db, keyId));
      if (!found) {
        io.result({ revoked: false, keyId, error: 'not_found' }, `no key ${keyId}`);
        return 1;
      }
      io.result({ revoked: true, keyId }, `revoked ${keyId} (other instances stop accepting it within 5 seconds)`);
    },
  },
  {
    name: 'signing-keys rotate',
    usage: 'kyx signing-keys rotate [--json]',
    async run(_args, io) {
      const { openKeyring } = await import('./signing-keys.ts');
      const kid = await withStorage(io, async (s) => (await openKeyring(s.db, io.config.tokenTtlSeconds)).rotate());
      io.result({ kid }, `new signing key ${kid}; the previous one stays verifiable until its tokens expire`);
    },
  },
];
