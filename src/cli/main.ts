import { parseArgs } from 'node:util';
import { ConfigError, readConfig } from '../config.ts';
import { type CliCommand, type CliIo, UsageError } from './command.ts';
import { accountCommands } from '../accounts/cli.ts';
import { amlCommands } from '../aml/cli.ts';
import { escrowCommands } from '../escrow/cli.ts';
import { reportCommands } from '../reports/cli.ts';
import { workflowCommands } from '../workflows/cli.ts';
import { userCommands } from '../users/cli.ts';
import { oauthCommands } from '../oauth/cli.ts';
import { configCommand } from './show-config.ts';

const serve: CliCommand = {
  name: 'serve',
  usage: 'kyx serve   (PORT, KYX_DATA_DIR, DATABASE_URL, REDIS_URL… from the environment)',
  async run(_args, io) {
    const { startServer } = await import('../server.ts');
    const server = await startServer(io.config);
    const shutdown = (signal: string) => {
      server.app.log.info({ signal }, 'draining in-flight requests');
      server.stop().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
    await new Promise(() => {});
  },
};

const COMMANDS: CliCommand[] = [serve, configCommand, ...accountCommands, ...amlCommands, ...escrowCommands, ...reportCommands, ...workflowCommands, ...userCommands, ...oauthCommands];

function usage(): string {
  return ['usage:', ...COMMANDS.map((c) => `  ${c.usage.split('\n')[0]}`), '', 'kyx COMMAND --help prints the details of one command.'].join('\n');
}

const isHelpFlag = (arg: string) => arg === '--help' || arg === '-h';

/** The command these words name, or every command of the group they name ("lists"); none when unknown. */
function commandsNamed(words: string[]): CliCommand[] {
  const exact = COMMANDS.filter((c) => c.name === words.join(' '));
  return exact.length ? exact : COMMANDS.filter((c) => words.every((word, i) => c.name.split(' ')[i] === word));
}

export async function runCli(argv: string[], write = (line: string) => process.stdout.write(line + '\n')): Promise<number> {
  const wantsJson = argv.includes('--json');
  const fail = (code: number, message: string, extra?: string) => {
    if (wantsJson) write(JSON.stringify({ error: message }));
    else process.stderr.write(`kyx: ${message}\n${extra ? extra + '\n' : ''}`);
    return code;
  };
  // `kyx help [COMMAND]`, `kyx --help`, `kyx -h`, and `kyx WORDS --help` for a command or a group of commands.
  const asksHelp = argv[0] === 'help' || (argv.length > 0 && isHelpFlag(argv[0]));
  const topic = asksHelp ? argv.slice(1).filter((arg) => !arg.startsWith('-')) : [];
  if (asksHelp && topic.length === 0) {
    write(usage());
    return 0;
  }
  if (asksHelp) {
    const named = commandsNamed(topic);
    if (named.length === 0) return fail(2, `unknown command "${topic.join(' ')}"`, usage());
    write(named.map((c) => c.usage).join('\n'));
    return 0;
  }
  const command = COMMANDS.filter((c) => c.name.split(' ').every((word, i) => argv[i] === word)).sort(
    (a, b) => b.name.length - a.name.length,
  )[0];
  if (!command) {
    const firstOption = argv.findIndex((arg) => arg.startsWith('-'));
    const words = firstOption < 0 ? argv : argv.slice(0, firstOption);
    const group = words.length ? commandsNamed(words) : [];
    if (group.length && argv.some(isHelpFlag)) {
      write(group.map((c) => c.usage).join('\n'));
      return 0;
    }
    if (group.length) return fail(2, `"${words.join(' ')}" needs a subcommand`, group.map((c) => `usage: ${c.usage.split('\n')[0]}`).join('\n'));
    return fail(2, argv.length ? `unknown command "${argv.join(' ')}"` : 'no command given', usage());
  }
  const args = argv.slice(command.name.split(' ').length);
  const beforeTerminator = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (beforeTerminator.some(isHelpFlag)) {
    write(command.usage);
    return 0;
  }
  try {
    const parsed = parseArgs({
      args,
      options: { json: { type: 'boolean' }, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.positionals.length > (command.positionals?.length ?? 0)) {
      throw new UsageError(`unexpected argument "${parsed.positionals[(command.positionals?.length ?? 0)]}"`);
    }
    const { config, effective } = readConfig();
    const io: CliIo = {
      config,
      effective,
      // The composition root loads every module: only a command that opens storage pays for it.
      openStorage: async () => (await import('../bootstrap.ts')).openMigratedStorage(config),
      migrate: async () => (await import('../bootstrap.ts')).migrate(config),
      json: wantsJson,
      out: write,
      result: (value, human) => write(wantsJson ? JSON.stringify(value) : human),
    };
    const code = await command.run({ values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals }, io);
    return code ?? 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      return fail(2, (error as Error).message, `usage: ${command.usage}`);
    }
    if (error instanceof ConfigError) return fail(2, error.message);
    return fail(1, error instanceof Error ? error.message : String(error));
  }
}

const isEntryPoint = process.argv[1] && /kyx(\.js)?$|cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntryPoint) {
  runCli(process.argv.slice(2)).then((code) => {
    if (code !== 0 || process.argv[2] !== 'serve') process.exit(code);
  });
}
