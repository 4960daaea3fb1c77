import net, { type AddressInfo } from 'node:net';

export interface ClosableProxy {
  port: number;
  /** Ends every connection through the proxy and refuses new ones, as an unreachable server would. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

/** A TCP proxy to a server (PostgreSQL, Redis) that a test can take down and bring back. */
export async function startProxy(target: { hostname: string; port: number }): Promise<ClosableProxy> {
  let isDown = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = net.connect(target.port, target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    down() {
      isDown = true;
      for (const socket of sockets) socket.destroy();
    },
    up() {
      isDown = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
