import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.ts';
import type { EffectiveVariable } from '../env.ts';
import type { MigrationReport } from '../storage/migrate.ts';
import type { Dialect, Storage } from '../storage/database.ts';

export interface CliIo {
  config: Config;
  /** Every variable the configuration read, redacted for printing. */
  effective: EffectiveVariable[];
  /** Opens storage with every migration applied; the caller closes it. */
  openStorage(): Promise<Storage>;
  /** Applies every pending migration. */
  migrate(): Promise<MigrationReport & { dialect: Dialect }>;
  json: boolean;
  out(line: string): void;
  /** Prints `value` as JSON with --json, else the human line(s). */
  result(value: unknown, human: string): void;
}

export interface CliCommand {
  /** The words that select it, e.g. "keys create". */
  name: string;
  usage: string;
  options?: NonNullable<ParseArgsConfig['options']>;
  /** Positional arguments it takes (their names, for the usage line). */
  positionals?: string[];
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }, io: CliIo): Promise<number | void>;
}

/** A mistake in how the command was called: printed with the usage line, exit code 2. */
export class UsageError extends Error {}

export function requiredString(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalPositiveInteger(values: Record<string, string | boolean | undefined>, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(number) || number <= 0) throw new UsageError(`--${name} must be an integer greater than 0`);
  return number;
}

/** Runs `work` over migrated storage and closes it afterwards. */
export async function withStorage<T>(io: CliIo, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await io.openStorage();
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}
