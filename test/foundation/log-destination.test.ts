import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { logDestination } from '../../src/log-destination.ts';
import { PATIENCE_MS, until } from '../helpers/wait.ts';

const run = promisify(execFile);
const MODULE = path.resolve(import.meta.dirname, '../../src/log-destination.ts');

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const logFile = () => path.join((dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-log-'))), 'out.log');
const line = (i: number) => `${JSON.stringify({ level: 30, n: i, msg: 'request completed', note: 'é∑' })}\n`;

describe('log destination', () => {
  it('writes every line once, in order, when the process exits before a block is full or old enough', async () => {
    const file = logFile();
    // 1,001 lines: whole blocks handed on while running, and a partial block left when process.exit runs.
    const script = `
      const { logDestination } = await import(${JSON.stringify(MODULE)});
      const destination = logDestination(${JSON.stringify(file)});
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let i = 0; i < 1001; i++) destination.write(JSON.stringify({ level: 30, n: i, msg: 'request completed', note: 'é∑' }) + '\\n');
      process.exit(0);
    `;
    await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: PATIENCE_MS });
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(1001);
    expect(lines.map((text) => JSON.parse(text).n)).toEqual([...Array(1001).keys()]);
  });

  it('writes a few lines without waiting for a full block', async () => {
    const file = logFile();
    const destination = logDestination(file);
    destination.write(line(0));
    destination.write(line(1));
    const text = await until(() => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''), (read) => read.length > 0, 'the lines to be written');
    expect(text).toBe(line(0) + line(1));
  });
});
