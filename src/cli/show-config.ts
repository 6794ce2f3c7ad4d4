import type { CliCommand } from './command.ts';

export const configCommand: CliCommand = {
  name: 'config',
  usage: 'kyx config [--json]\n  The effective configuration: every variable kyx reads, its value (secrets redacted) and whether it was set.',
  async run(_args, io) {
    const human = io.effective.map(({ section, name, value, source, description }) => {
      const shown = value === null ? '(unset)' : String(value);
      return `${section.padEnd(8)} ${name}=${shown}  [${source}]  ${description}`;
    });
    io.result({ variables: io.effective }, human.join('\n'));
  },
};
