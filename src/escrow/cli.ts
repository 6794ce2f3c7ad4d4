import fs from 'node:fs';
import type { CliCommand } from '../cli/command.ts';
import { UsageError, requiredString, withStorage } from '../cli/command.ts';
import type { NewEscrow } from './repository.ts';

// What a command runs is imported when it runs: `kyx --help` and the other commands do not load it.
const repositories = async () => {
  const [{ findAccount }, { createEscrow, escrowProblems }] = await Promise.all([import('../accounts/repository.ts'), import('./repository.ts')]);
  return { findAccount, createEscrow, escrowProblems };
};

export const escrowCommands: CliCommand[] = [
  {
    name: 'escrow create',
    usage: 'kyx escrow create --account ID --amount N --currency C --buyer B --seller S [--description D] [--json]\n  amount in minor units (cents)',
    options: {
      account: { type: 'string' },
      amount: { type: 'string' },
      currency: { type: 'string' },
      buyer: { type: 'string' },
      seller: { type: 'string' },
      description: { type: 'string' },
    },
    async run({ values }, io) {
      const { findAccount, createEscrow, escrowProblems } = await repositories();
      const input = {
        accountId: requiredString(values, 'account'),
        amount: Number(requiredString(values, 'amount')),
        currency: requiredString(values, 'currency'),
        buyer: requiredString(values, 'buyer'),
        seller: requiredString(values, 'seller'),
        description: typeof values.description === 'string' ? values.description : undefined,
      };
      const problems = escrowProblems(input);
      if (problems.length) throw new UsageError(problems.join('; '));
      const escrow = await withStorage(io, async (storage) => {
        if (!(await findAccount(storage.db, input.accountId))) throw new UsageError(`no account ${input.accountId}`);
        return createEscrow(storage.db, input);
      });
      io.result({ escrowId: escrow.escrowId }, `created escrow ${escrow.escrowId}`);
    },
  },
  {
    name: 'escrow import',
    usage: 'kyx escrow import FILE.json [--json]\n  FILE: an array of {escrowId?, accountId, status?, amount, currency, buyer, seller, description?, createdAt?, updatedAt?}',
    positionals: ['FILE.json'],
    async run({ positionals }, io) {
      const file = positionals[0];
      if (!file) throw new UsageError('FILE.json is required');
      const { findAccount, createEscrow, escrowProblems } = await repositories();
      let entries: unknown;
      try {
        entries = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
      }
      if (!Array.isArray(entries)) throw new UsageError(`${file} must hold a JSON array of escrows`);
      const problems = entries.flatMap((entry, index) =>
        typeof entry !== 'object' || entry === null ? [`[${index}] is not an object`] : escrowProblems(entry).map((p) => `[${index}] ${p}`),
      );
      if (problems.length) throw new UsageError(`nothing imported: ${problems.join('; ')}`);
      // All or nothing: a file half imported would be hard to re-run.
      const ids = await withStorage(io, (storage) =>
        storage.db.transaction().execute(async (trx) => {
          const created: string[] = [];
          for (const entry of entries as NewEscrow[]) {
            if (!(await findAccount(trx, entry.accountId))) throw new UsageError(`no account ${entry.accountId}; nothing imported`);
            created.push((await createEscrow(trx, entry)).escrowId);
          }
          return created;
        }),
      );
      io.result({ imported: ids.length, escrowIds: ids }, `imported ${ids.length} escrow(s)`);
    },
  },
];
