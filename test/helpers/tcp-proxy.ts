import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a real server (the machine's shared Postgres or Redis) that a test cuts and restores:
 * cut closes every relayed connection and refuses new ones, as a stopped server does; the server itself is untouched.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    /** `url` with its host and port replaced by the relay's. */
    relay(url: string): string {
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(port);
      return relayed.toString();
    },
    async cut(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: listen,
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
