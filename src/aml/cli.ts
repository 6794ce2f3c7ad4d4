import type { CliCommand } from '../cli/command.ts';
import { UsageError } from '../cli/command.ts';
import { requiredString, withStorage } from '../cli/command.ts';

// What a command runs is imported when it runs: `kyx --help` and the other commands do not load it.
const listSources = () => import('./list-sources.ts');

const monitoringCommand = (enable: boolean): CliCommand => ({
  name: enable ? 'monitoring enable' : 'monitoring disable',
  usage: `kyx monitoring ${enable ? 'enable' : 'disable'} --account ID [--json]\n  ${
    enable ? 'Enrols in ongoing AML monitoring the names every live KYC and KYB check of the account screens from now on.' : 'Stops enrolling new names (enrolled ones stay monitored until stopped).'
  }`,
  options: { account: { type: 'string' } },
  async run({ values }, io) {
    const accountId = requiredString(values, 'account');
    const [{ findAccount }, { setAccountMonitoring }] = await Promise.all([import('../accounts/repository.ts'), import('./monitoring.ts')]);
    await withStorage(io, async (storage) => {
      if (!(await findAccount(storage.db, accountId))) throw new UsageError(`no account ${accountId}`);
      await setAccountMonitoring(storage.db, accountId, enable);
    });
    io.result({ accountId, amlMonitoring: enable }, `AML monitoring of live KYC and KYB names ${enable ? 'enabled' : 'disabled'} for ${accountId}`);
  },
});

export const amlCommands: CliCommand[] = [
  monitoringCommand(true),
  monitoringCommand(false),
  {
    name: 'lists import',
    usage: [
      'kyx lists import PATH [--json]',
      '  PATH: a list file or a folder of them (OFAC SDN.CSV with its ALT/ADD/COMMENTS files in one folder).',
      '  Each list is parsed; a list that parses is kept under $KYX_DATA_DIR/lists-imported and served from the',
      '  next start, with no network needed. Exit code 1 when any file is not a readable list.',
    ].join('\n'),
    positionals: ['PATH'],
    async run({ positionals }, io) {
      const path = positionals[0];
      if (!path) throw new UsageError('PATH is required');
      const { configuredListNames, importLists, importedListsDir } = await listSources();
      const results = await importLists(io.config.dataDir, [path], await configuredListNames(io.config));
      const human = results.map((r) =>
        r.error
          ? `FAILED    ${r.name}: ${r.error}`
          : `imported  ${r.name} (${r.format}, ${r.entityCount} entities${r.versionDate ? `, version ${r.versionDate}` : ''})`,
      );
      if (results.length === 0) human.push(`no list file found in ${path}`);
      if (results.some((r) => !r.error)) human.push(`into ${importedListsDir(io.config.dataDir)}; served from the next start of kyx`);
      io.result({ imported: results.filter((r) => !r.error).length, lists: results }, human.join('\n'));
      return results.length > 0 && results.every((r) => !r.error) ? 0 : 1;
    },
  },
  {
    name: 'lists status',
    usage: 'kyx lists status [--json]\n  Loads the configured lists (KYX_LISTS_DIR, imported lists, KYX_LIST_SOURCES) as the service would and reports each,\n  and every file of KYX_LISTS_DIR that is not loaded, with why.',
    async run(_args, io) {
      const { openListRegistry } = await listSources();
      const { registry } = await openListRegistry(io.config);
      try {
        const lists = await registry.load();
        const { listsVersion } = registry.versions();
        const human = lists.map(
          (l) =>
            `${l.lastError ? 'ERROR' : 'ok   '} ${l.name.padEnd(24)} ${String(l.entityCount).padStart(7)} entities  ${l.format ?? '-'}  version ${l.versionDate ?? '-'}  ${l.source}` +
            (l.lastError ? `\n      ${l.lastError}${l.entityCount ? ' (last good version serves)' : ''}` : ''),
        );
        const skipped = registry.skippedFiles();
        human.push(...skipped.map(({ file, reason }) => `skipped ${file}: ${reason}`));
        human.push(lists.length ? `lists version ${listsVersion ?? '-'}` : 'no list is configured: set KYX_LISTS_DIR or KYX_LIST_SOURCES, or run kyx lists import');
        io.result({ listsVersion, lists, skipped }, human.join('\n'));
        return registry.isReady() ? 0 : 1;
      } finally {
        await registry.close();
      }
    },
  },
];
