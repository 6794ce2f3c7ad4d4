import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { type CliCommand, type CliIo, UsageError } from './command.ts';
import { accountCommands } from '../accounts/cli.ts';
import { amlCommands } from '../aml/cli.ts';
import { escrowCommands } from '../escrow/cli.ts';
import { reportCommands } from '../reports/cli.ts';
import { workflowCommands } from '../workflows/cli.ts';
import { migrate, openMigratedStorage } from '../bootstrap.ts';
import { startServer } from '../server.ts';
import { configCommand } from './show-config.ts';

const serve: CliCommand = {
  name: 'serve',
  usage: 'kyx serve   (PORT, KYX_DATA_DIR, DATABASE_URL, REDIS_URL… from the environment)',
  async run(_args, io) {
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

const COMMANDS: CliCommand[] = [serve, configCommand, ...accountCommands, ...amlCommands, ...escrowCommands, ...reportCommands, ...workflowCommands];

function usage(): string {
  return ['usage:', ...COMMANDS.map((c) => `  ${c.usage.split('\n')[0]}`)].join('\n');
}

export async function runCli(argv: string[], write = (line: string) => process.stdout.write(line + '\n')): Promise<number> {
  const command = COMMANDS.filter((c) => c.name.split(' ').every((word, i) => argv[i] === word)).sort(
    (a, b) => b.name.length - a.name.length,
  )[0];
  const wantsJson = argv.includes('--json');
  const fail = (code: number, message: string, extra?: string) => {
    if (wantsJson) write(JSON.stringify({ error: message }));
    else process.stderr.write(`kyx: ${message}\n${extra ? extra + '\n' : ''}`);
    return code;
  };
  if (!command) return fail(2, argv.length ? `unknown command "${argv.join(' ')}"` : 'no command given', usage());
  try {
    const parsed = parseArgs({
      args: argv.slice(command.name.split(' ').length),
      options: { json: { type: 'boolean' }, help: { type: 'boolean' }, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    if (parsed.values.help) {
      write(command.usage);
      return 0;
    }
    if (parsed.positionals.length > (command.positionals?.length ?? 0)) {
      throw new UsageError(`unexpected argument "${parsed.positionals[(command.positionals?.length ?? 0)]}"`);
    }
    const config = loadConfig();
    const io: CliIo = {
      config,
      openStorage: () => openMigratedStorage(config),
      migrate: () => migrate(config),
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
