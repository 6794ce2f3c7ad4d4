import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropPostgresSchema } from '../../src/storage/database.ts';
import { PATIENCE_MS } from './wait.ts';

export const KYX_BIN = path.resolve(import.meta.dirname, '../../bin/kyx.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  json(): any;
}

/** Runs the real `kyx` binary in a child process. */
export function kyx(args: string[], env: Record<string, string | undefined>): CliRun {
  const result = spawnSync(process.execPath, [KYX_BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: PATIENCE_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json: () => JSON.parse(result.stdout.trim().split('\n').at(-1)!) };
}

/** The same without blocking the event loop (for callers serving traffic meanwhile): its last JSON line, or a rejection. */
export function kyxJson(args: string[], env: Record<string, string | undefined>): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KYX_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`kyx ${args.join(' ')} exited ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!));
    });
  });
}

/** Starts `kyx serve` and resolves once it prints its listening line. */
export function startKyx(env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [KYX_BIN, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('kyx listening on')) resolve(output);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`kyx serve exited ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => output };
}

/**
 * The environment of a `kyx serve` child with its own data directory, port and (when DATABASE_URL is set) Postgres
 * schema; `cleanup` removes the directory and the schema.
 */
export function childServerEnv(name: string) {
  const postgresUrl = process.env.DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kyx-${name}-`));
  const schema = `kyx_t_${randomBytes(6).toString('hex')}`;
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const env = {
    KYX_DATA_DIR: dataDir,
    PORT: port,
    HOST: '127.0.0.1',
    KYX_LOG_LEVEL: 'warn',
    DATABASE_URL: postgresUrl,
    KYX_DATABASE_SCHEMA: postgresUrl ? schema : undefined,
  };
  const cleanup = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgresUrl) await dropPostgresSchema(postgresUrl, schema);
  };
  return { env, port, dataDir, cleanup };
}
