import type { CliCommand } from '../cli/command.ts';
import { UsageError } from '../cli/command.ts';

export const reportCommands: CliCommand[] = [
  {
    name: 'bundle verify',
    usage: 'kyx bundle verify FILE.zip [--json]\n  exit 0: every file matches manifest.json; 1: missing, changed, unlisted or duplicated files; 2: unreadable',
    positionals: ['FILE.zip'],
    async run({ positionals }, io) {
      const file = positionals[0];
      if (!file) throw new UsageError('FILE.zip is required');
      // Imported when it runs: `kyx --help` and the other commands do not load the PDF and archive code.
      const { runBundleVerify } = await import('./index.ts');
      return runBundleVerify(file, { json: io.json, write: (text) => io.out(text.replace(/\n$/, '')) });
    },
  },
];
