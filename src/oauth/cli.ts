import type { CliCommand } from '../cli/command.ts';
import { UsageError, requiredString, withStorage } from '../cli/command.ts';
import { DomainError } from '../errors.ts';
import { SCOPES, isScope } from '../accounts/scopes.ts';

export const oauthCommands: CliCommand[] = [
  {
    name: 'oauth clients create',
    usage: `kyx oauth clients create --account ID --name N --redirect-uri URI [--redirect-uri URI…] [--scopes a,b] [--public] [--env test|live] [--json]
  redirect URIs are compared exactly; https, or http on localhost only. scopes: ${SCOPES.join(' ')}`,
    options: {
      account: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      scopes: { type: 'string' },
      public: { type: 'boolean' },
      env: { type: 'string' },
    },
    async run({ values }, io) {
      const accountId = requiredString(values, 'account');
      const name = requiredString(values, 'name');
      const redirectUris = (values['redirect-uri'] as unknown as string[] | undefined) ?? [];
      if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required');
      const scopes = typeof values.scopes === 'string' ? values.scopes.split(',').map((scope) => scope.trim()).filter(Boolean) : [...SCOPES];
      const unknown = scopes.filter((scope) => !isScope(scope));
      if (unknown.length) throw new UsageError(`unknown scope(s): ${unknown.join(', ')}`);
      const environment = values.env ?? 'live';
      if (environment !== 'test' && environment !== 'live') throw new UsageError('--env must be test or live');
      // Imported when it runs: `kyx --help` and the other commands do not load it.
      const [{ findAccount }, { createOAuthRepository }, { registerClient }] = await Promise.all([
        import('../accounts/repository.ts'),
        import('./repository.ts'),
        import('./service.ts'),
      ]);
      const registered = await withStorage(io, async (storage) => {
        if (!(await findAccount(storage.db, accountId))) throw new UsageError(`no account ${accountId}`);
        try {
          return await registerClient(createOAuthRepository(storage.db), accountId, { name, redirectUris, scopes: scopes.filter(isScope), public: values.public === true, environment });
        } catch (error) {
          if (error instanceof DomainError) throw new UsageError(error.issues.map((issue) => issue.message).join('; '));
          throw error;
        }
      });
      const { client, clientSecret } = registered;
      io.result(
        clientSecret ? { clientId: client.clientId, clientSecret } : { clientId: client.clientId },
        `registered ${client.type} client ${client.clientId} (${client.name})${clientSecret ? `\nclient secret (shown once): ${clientSecret}` : ''}`,
      );
    },
  },
];
