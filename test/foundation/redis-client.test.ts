// The Redis client's reply timeout against a server the test plays: a reply that arrived while the event loop was
// stalled past the timeout is taken, and only a command nobody answers times out. The stall is played with a fake
// clock moved past the deadline after the reply is written and before the client can read it, so the order of
// events is the same on any machine, however busy.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StallTolerantRedis } from '../../src/redis-client.ts';

const TIMEOUT_MS = 2000;

/** The loop's turn after the server wrote its reply, before the poll that lets the client read it: the clock jumps. */
function stallPastTheDeadline(): void {
  setImmediate(() => vi.advanceTimersByTime(TIMEOUT_MS + 1));
}

/**
 * A RESP server: `GET stalled` is answered at once and the clock then jumps past the deadline before the client can
 * read the answer; `GET silent` is never answered; anything else gets +OK.
 */
async function startServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((socket: Socket) => {
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const command = takeCommand(pending);
        if (!command) return;
        pending = pending.slice(command.length);
        const [name, key] = command.args;
        if (name?.toUpperCase() === 'GET' && key === 'silent') continue;
        if (name?.toUpperCase() === 'GET' && key === 'stalled') {
          socket.write('$5\r\nvalue\r\n');
          stallPastTheDeadline();
          continue;
        }
        socket.write('+OK\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** One complete RESP array of bulk strings at the start of `buffer`, or undefined while it is incomplete. */
function takeCommand(buffer: string): { args: string[]; length: number } | undefined {
  let at = 0;
  const line = () => {
    const end = buffer.indexOf('\r\n', at);
    if (end < 0) return undefined;
    const text = buffer.slice(at, end);
    at = end + 2;
    return text;
  };
  const header = line();
  if (header === undefined) return undefined;
  const args: string[] = [];
  for (let i = 0; i < Number(header.slice(1)); i++) {
    const size = line();
    if (size === undefined || buffer.length < at + Number(size.slice(1)) + 2) return undefined;
    args.push(buffer.slice(at, at + Number(size.slice(1))));
    at += Number(size.slice(1)) + 2;
  }
  return { args, length: at };
}

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function connected<T extends Redis>(client: T, server: Server): Promise<T> {
  cleanups.push(() => client.disconnect(), () => new Promise((done) => server.close(done)));
  await client.ping();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return client;
}

const options = { maxRetriesPerRequest: 0, enableReadyCheck: false, lazyConnect: true } as const;

describe('StallTolerantRedis', () => {
  it("takes a reply that arrived while the event loop was stalled past the timeout, which ioredis's own timeout rejects", async () => {
    const own = await startServer();
    const plain = await connected(new Redis(own.url, { ...options, commandTimeout: TIMEOUT_MS }), own.server);
    await expect(plain.get('stalled')).rejects.toThrow('Command timed out');

    const ours = await startServer();
    const tolerant = await connected(new StallTolerantRedis(ours.url, { ...options, replyTimeoutMs: TIMEOUT_MS }), ours.server);
    await expect(tolerant.get('stalled')).resolves.toBe('value');
  });

  it('still rejects a command the server never answers', async () => {
    const { server, url } = await startServer();
    const client = await connected(new StallTolerantRedis(url, { ...options, replyTimeoutMs: TIMEOUT_MS }), server);
    const silent = client.get('silent');
    vi.advanceTimersByTime(TIMEOUT_MS + 1);
    await expect(silent).rejects.toThrow('Command timed out');
  });

  it('times pipelined commands too', async () => {
    const { server, url } = await startServer();
    const client = await connected(new StallTolerantRedis(url, { ...options, replyTimeoutMs: TIMEOUT_MS, enableAutoPipelining: true }), server);
    const [stalled, silent] = await Promise.allSettled([client.get('stalled'), client.get('silent')]);
    expect(stalled).toEqual({ status: 'fulfilled', value: 'value' });
    expect(silent).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: 'Command timed out' }) });
  });
});
