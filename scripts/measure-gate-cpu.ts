// The cost of one GET /api/v1/validate-key inside the server, measured from outside it: each server runs in a
// process of its own and autocannon drives it from this one, so the figure is the server's work only.
//   node --import tsx scripts/measure-gate-cpu.ts [--rounds 6] [--requests 40000] [--other <checkout>] [mode…]
//   node --import tsx scripts/measure-gate-cpu.ts --callgrind [--requests 8000] [--warm-up 15000] [mode…]
// Modes: bare (a bare Fastify route answering the same JSON, no logging), sqlite (default `info` request logging
// to /dev/null), sqlite-off (no logging), pg-redis, pg (DATABASE_URL / REDIS_URL or the local defaults).
// `other:<mode>` runs the mode on the checkout given by --other (its `src/`), so two versions of the code are
// measured side by side.
// By default it prints the process CPU time (user + system, every thread) per request, over alternating rounds of
// every server, with the median: on a shared machine the figure moves with the load. --callgrind counts the user-space
// instructions per request under valgrind instead, after a warm-up, which the load does not change (slow: minutes
// per server; the kernel's side of the socket writes is not counted), and splits out V8's garbage collection and
// compilers (see splitOut).
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BARE_VALIDATE_KEY_BODY } from '../bench/_bare-route.ts';

const POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Listening {
  url: string;
  headers: Record<string, string>;
}

/** In the server process: listens, answers `cpu` with its CPU time so far and `close` by closing. */
async function serve(mode: string, src: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { SCOPES } = await import(path.join(src, 'accounts/scopes.ts'));
  let listening: Listening;
  let close: () => Promise<void>;
  if (mode === 'bare') {
    const bare = Fastify();
    bare.get('/api/v1/validate-key', async () => BARE_VALIDATE_KEY_BODY);
    listening = { url: `${await bare.listen({ port: 0, host: '127.0.0.1' })}/api/v1/validate-key`, headers: {} };
    close = () => bare.close();
  } else {
    const { loadConfig } = await import(path.join(src, 'config.ts'));
    const { buildApp } = await import(path.join(src, 'app.ts'));
    const { closeContext, createContext } = await import(path.join(src, 'bootstrap.ts'));
    const { createAccount, createApiKey } = await import(path.join(src, 'accounts/repository.ts'));
    const { dropPostgresSchema } = await import(path.join(src, 'storage/database.ts'));
    // The log destination moved out of app.ts in round 5 of #21; older checkouts export it from there.
    const destinations = fs.existsSync(path.join(src, 'log-destination.ts')) ? await import(path.join(src, 'log-destination.ts')) : await import(path.join(src, 'app.ts'));
    const databaseUrl = mode.startsWith('pg') ? POSTGRES : undefined;
    const redisUrl = mode === 'pg-redis' ? REDIS : undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-gate-cpu-'));
    const schema = `kyx_gate_cpu_${randomBytes(4).toString('hex')}`;
    const config = {
      ...loadConfig({ KYX_DATA_DIR: dataDir, KYX_FLOOD_LIMIT: '100000000' }),
      databaseUrl,
      redisUrl,
      databaseSchema: databaseUrl ? schema : undefined,
      redisPrefix: `kyx:gate-cpu:${randomBytes(4).toString('hex')}:`,
    };
    const context = await createContext(config);
    const app = await buildApp(context, { logger: mode === 'sqlite-off' ? false : { level: 'info', stream: destinations.logDestination('/dev/null') } });
    const account = await createAccount(context.storage.db, { name: 'gate-cpu', planId: 'enterprise' });
    const { key } = await createApiKey(context.storage.db, { accountId: account.id, environment: 'live', scopes: [...SCOPES] });
    listening = { url: `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/validate-key`, headers: { authorization: `Bearer ${key}` } };
    close = async () => {
      await app.close();
      await closeContext(context);
      if (databaseUrl) await dropPostgresSchema(databaseUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  }
  process.on('message', async (message: string) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ user, system });
    } else if (message === 'close') {
      await close();
      process.exit(0);
    }
  });
  process.send!(listening);
}

interface Server extends Listening {
  mode: string;
  child: ChildProcess;
}

function stop(server: Server): Promise<unknown> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('close');
  return exited;
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

async function start(mode: string, other: string | undefined, callgrindDir?: string): Promise<Server> {
  const src = mode.startsWith('other:') ? path.join(path.resolve(other ?? '.'), 'src') : path.resolve(import.meta.dirname, '../src');
  const own = mode.replace(/^other:/, '');
  const args = ['--import', 'tsx', import.meta.filename, '--serve', own, '--src', src];
  const child = callgrindDir
    ? spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${callgrindDir}/${mode.replace(':', '-')}.%p`, process.execPath, ...args], {
        stdio: ['ignore', 'inherit', 'ignore', 'ipc'],
      })
    : fork(import.meta.filename, ['--serve', own, '--src', src], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const listening = await new Promise<Listening>((resolve) => child.once('message', (message) => resolve(message as Listening)));
  return { mode, child, ...listening };
}

async function drive(server: Server, requests: number): Promise<void> {
  const result = await autocannon({ url: server.url, headers: server.headers, connections: 16, amount: requests, timeout: 60 });
  if (result.non2xx || result.errors) throw new Error(`${server.mode}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
}

// V8's garbage collector and compilers by the names of their functions (C++ symbols of the node binary): how much of
// them falls into a window moves by tens of thousands of instructions per request from run to run (when a major
// collection runs, what gets optimised), so the rest is the figure to compare. Round 6 of #21 introduced this split;
// earlier rounds' "outside GC and compilation" figures were classified by hand and are not comparable with it.
const GC_FUNCTIONS = /Heap|Scaveng|MarkCompact|Sweep|Marking|Evacuat|GCTracer|MinorGC|ConcurrentMark|Collector|RememberedSet|SlotSet|MemoryChunk|ActiveSystemPages|IterateObjectCache|RootVisitor|BodyDescriptor|SizeFromMap|Mark|cppgc|Compactor|Visitor|GlobalHandles|TracedHandles|SemiSpace|NewSpace|LargeObjectSpace|FreeList|Page::|WeakObjects/;
const COMPILER_FUNCTIONS = /compiler::|maglev|Maglev|baseline::|Baseline|Compiler|Parser|Scanner|Bytecode|turboshaft|Turboshaft|RegExpCompiler|Zone|Ast|Scope::|CodeGenerator|Assembler|InstructionSelector|RegisterAllocator|LiveRange|Schedule|GraphReducer|Typer|SourcePosition|JSHeapBroker|Deoptimiz|UnoptimizedCompile|interpreter::|LoadElimination|Reduc/;

function splitOut(dump: string): { gc: number; compile: number } {
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', dump], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  let gc = 0;
  let compile = 0;
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!match || match[2].includes('PROGRAM TOTALS')) continue;
    const instructions = Number(match[1].replaceAll(',', ''));
    if (GC_FUNCTIONS.test(match[2])) gc += instructions;
    else if (COMPILER_FUNCTIONS.test(match[2])) compile += instructions;
  }
  return { gc, compile };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () => os.loadavg().map((figure) => figure.toFixed(1)).join(' ');

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    serve: { type: 'string' },
    src: { type: 'string' },
    other: { type: 'string' },
    callgrind: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '6' },
    requests: { type: 'string' },
    'warm-up': { type: 'string', default: '15000' },
  },
});
const modes = positionals.length ? positionals : ['bare', 'sqlite', 'sqlite-off'];

if (options.serve) {
  await serve(options.serve, options.src!);
} else if (options.callgrind) {
  const requests = Number(options.requests ?? 8000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kyx-callgrind-'));
  console.log(`instructions per request under callgrind: ${options['warm-up']} requests to warm up, then ${requests}; load ${load()}`);
  for (const mode of modes) {
    const server = await start(mode, options.other, dir);
    const pid = String(server.child.pid);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    await drive(server, Number(options['warm-up']));
    execFileSync('callgrind_control', ['--zero', pid], { stdio: 'ignore' });
    await drive(server, requests);
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    const dump = fs.readdirSync(dir).find((file) => file.startsWith(`${mode.replace(':', '-')}.${pid}`) && file.endsWith('.1'))!;
    const total = Number(/^(?:summary|totals):\s+(\d+)/m.exec(fs.readFileSync(path.join(dir, dump), 'utf8'))![1]);
    const { gc, compile } = splitOut(path.join(dir, dump));
    const k = (instructions: number) => `${(instructions / requests / 1000).toFixed(1)}k`;
    console.log(
      `${mode.padEnd(16)} ${k(total)} instructions per request: garbage collection ${k(gc)}, compilers ${k(compile)}, the rest ${k(total - gc - compile)}  (${path.join(dir, dump)})`,
    );
    await stop(server);
  }
} else {
  const requests = Number(options.requests ?? 40000);
  const servers: Server[] = [];
  for (const mode of modes) servers.push(await start(mode, options.other));
  for (const server of servers) await drive(server, requests / 2);
  const perRequest = new Map<Server, number[]>(servers.map((server) => [server, []]));
  const loadBefore = load();
  for (let round = 0; round < Number(options.rounds); round++) {
    // Every server once per round, in the opposite order in odd rounds, so a load that rises or falls favours none.
    for (const server of round % 2 ? [...servers].reverse() : servers) {
      const before = await ask<NodeJS.CpuUsage>(server.child, 'cpu');
      await drive(server, requests);
      const after = await ask<NodeJS.CpuUsage>(server.child, 'cpu');
      perRequest.get(server)!.push((after.user + after.system - before.user - before.system) / requests);
    }
  }
  console.log(`server CPU time per request (user + system), ${options.rounds} alternating rounds of ${requests} requests; load ${loadBefore} before, ${load()} after`);
  for (const server of servers) {
    const figures = perRequest.get(server)!;
    console.log(`${server.mode.padEnd(16)} median ${median(figures).toFixed(1)} µs  (${figures.map((figure) => figure.toFixed(1)).join(' ')})`);
  }
  for (const server of servers) await stop(server);
}
