import type { CliCommand } from '../cli/command.ts';
import { UsageError, requiredString, withStorage } from '../cli/command.ts';
import { DomainError } from '../errors.ts';
import { ROLES, type Role } from './tables.ts';

export const userCommands: CliCommand[] = [
  {
    name: 'users create',
    usage: `kyx users create --account ID --email E --role ${ROLES.join('|')} [--json]\n  prints a single-use set-up link, valid 24 hours`,
    options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run({ values }, io) {
      const accountId = requiredString(values, 'account');
      const email = requiredString(values, 'email');
      const role = requiredString(values, 'role');
      if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      // Imported when it runs: `kyx --help` and the other commands do not load it.
      const [{ findAccount }, { createUsersService }] = await Promise.all([import('../accounts/repository.ts'), import('./service.ts')]);
      const { user, setupUrl } = await withStorage(io, async (storage) => {
        if (!(await findAccount(storage.db, accountId))) throw new UsageError(`no account ${accountId}`);
        try {
          return await createUsersService({ db: storage.db, baseUrl: io.config.baseUrl }).invite(accountId, { email, role: role as Role });
        } catch (error) {
          if (error instanceof DomainError) throw new UsageError(error.issues.map((issue) => `${issue.path.slice(1)} ${issue.message}`).join('; ') || error.message);
          throw error;
        }
      });
      io.result({ userId: user.id, setupUrl }, `created ${role} ${user.email} (${user.id})\nset-up link, valid 24 hours and usable once:\n${setupUrl}`);
    },
  },
];
