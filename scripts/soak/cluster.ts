// The soak's kyx instances (real `kyx serve` processes) and the round-robin proxy in front of them. The proxy
// behaves like a load balancer: it sends a request to the next instance it believes healthy, moves on when an
// instance refuses the connection, and takes an instance back once its /readyz answers 200 again. It also knows
// which instance generations the soak killed, so a connection cut by a kill is told apart from a real fault.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { KYX_BIN } from '../../test/helpers/cli.ts';

const READY_TIMEOUT_MS = 120_000;

export interface Instance {
  index: number;
  port: number;
  child?: ChildProcess;
  /** Incremented at each start; a request remembers the generation it was sent to. */
  generation: number;
  killedGenerations: Set<number>;
  /** Exits nobody asked for: any is a failure of the run. */
  unexpectedExits: string[];
  healthy: boolean;
}

export interface Cluster {
  instances: Instance[];
  start(instance: Instance): Promise<void>;
  kill(instance: Instance): Promise<void>;
  stopAll(): Promise<void>;
}

async function waitReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`instance on port ${port} exited while starting`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`instance on port ${port} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

export function createCluster(options: { ports: number[]; env: Record<string, string>; logDir: string }): Cluster {
  const instances: Instance[] = options.ports.map((port, index) => ({
    index,
    port,
    generation: 0,
    killedGenerations: new Set(),
    unexpectedExits: [],
    healthy: false,
  }));
  let stopping = false;

  async function start(instance: Instance): Promise<void> {
    instance.generation++;
    const generation = instance.generation;
    const log = fs.openSync(path.join(options.logDir, `instance-${instance.index}.log`), 'a');
    const child = spawn(process.execPath, [KYX_BIN, 'serve'], {
      env: { ...process.env, ...options.env, PORT: String(instance.port), HOST: '127.0.0.1' },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    instance.child = child;
    child.on('exit', (code, signal) => {
      instance.healthy = false;
      if (!stopping && !instance.killedGenerations.has(generation)) {
        instance.unexpectedExits.push(`instance ${instance.index} (generation ${generation}) exited: code ${code}, signal ${signal}`);
      }
    });
    await waitReady(instance.port, child);
  }

  async function kill(instance: Instance): Promise<void> {
    const child = instance.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    instance.killedGenerations.add(instance.generation);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function stopAll(): Promise<void> {
    stopping = true;
    await Promise.all(
      instances.map(async (instance) => {
        const child = instance.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  return { instances, start, kill, stopAll };
}

export interface Proxy {
  url: string;
  /** Soak request ids (x-soak-id) whose connection a kill cut. */
  cutIds: Set<string>;
  /** Failures of instances that were not killed: each one is a fault. */
  faults: string[];
  close(): Promise<void>;
}

const CUT_HEADER = 'x-soak-cut';

/** True when an answer came from the proxy because a kill cut the connection to the instance. */
export function cutByKill(headers: Headers): boolean {
  return headers.get(CUT_HEADER) === 'kill';
}

export async function startProxy(cluster: Cluster): Promise<Proxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const cutIds = new Set<string>();
  const faults: string[] = [];
  let next = 0;
  const pick = (tried: Set<Instance>): Instance | undefined => {
    for (let step = 0; step < cluster.instances.length; step++) {
      const instance = cluster.instances[(next + step) % cluster.instances.length];
      if (instance.healthy && !tried.has(instance)) {
        next = (instance.index + 1) % cluster.instances.length;
        return instance;
      }
    }
    return undefined;
  };

  let probing = true;
  const probe = async () => {
    while (probing) {
      await Promise.all(
        cluster.instances
          .filter((instance) => !instance.healthy && instance.child && instance.child.exitCode === null && instance.child.signalCode === null)
          .map(async (instance) => {
            try {
              const response = await fetch(`http://127.0.0.1:${instance.port}/readyz`, { signal: AbortSignal.timeout(1000) });
              await response.arrayBuffer();
              if (response.status === 200) instance.healthy = true;
            } catch {
              // still down
            }
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const probing$ = probe();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => forward(Buffer.concat(chunks), new Set()));
    const soakId = String(request.headers['x-soak-id'] ?? '');

    function answer(status: number, cut: 'kill' | 'fault', message: string) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json', [CUT_HEADER]: cut });
      response.end(JSON.stringify({ code: 'proxy_error', message }));
    }

    function forward(body: Buffer, tried: Set<Instance>) {
      const instance = pick(tried);
      if (!instance) return answer(503, 'fault', 'no healthy instance');
      tried.add(instance);
      const generation = instance.generation;
      const killed = () => instance.killedGenerations.has(generation);
      let reached = false;
      const upstream = http.request(
        { host: '127.0.0.1', port: instance.port, method: request.method, path: request.url, headers: request.headers, agent },
        (answerFromInstance) => {
          response.writeHead(answerFromInstance.statusCode ?? 502, answerFromInstance.headers);
          answerFromInstance.pipe(response);
          answerFromInstance.on('aborted', () => {
            if (killed()) cutIds.add(soakId);
            else faults.push(`instance ${instance.index} aborted an answer to ${request.method} ${request.url}`);
            response.destroy();
          });
        },
      );
      upstream.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => (reached = true));
        else reached = true;
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Refused: the request never reached the instance, so another may take it, as a load balancer does.
        if (error.code === 'ECONNREFUSED' && !reached) {
          instance.healthy = false;
          return forward(body, tried);
        }
        if (killed()) {
          instance.healthy = false;
          cutIds.add(soakId);
          return answer(502, 'kill', `connection to instance ${instance.index} cut by the kill`);
        }
        faults.push(`instance ${instance.index}: ${error.code ?? error.message} on ${request.method} ${request.url}`);
        answer(502, 'fault', error.message);
      });
      upstream.end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cutIds,
    faults,
    async close() {
      probing = false;
      await probing$;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
