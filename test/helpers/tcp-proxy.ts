import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a real server (the machine's shared Postgres or Redis) that a test cuts and restores:
 * cut closes every relayed connection and refuses new ones, as a stopped server does; the server itself is untouched.
 */
export async function startTcpProxy(serverUrl: string, defaultPort: number) {
  const server = new URL(serverUrl);
  const target = { host: server.hostname, port: Number(server.port || defaultPort) };
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
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
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  const relayed = new URL(serverUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  return {
    /** The server's URL with the relay's address. */
    url: relayed.toString(),
    async cut(): Promise<void> {
      const closed = new Promise<void>((resolve) => relay.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve)),
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      if (relay.listening) await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
