import net, { type AddressInfo } from 'node:net';

export interface ClosableProxy {
  port: number;
  /** Ends every connection through the proxy and refuses new ones, as an unreachable server would. */
  down(): void;
  /**
   * Ends the server's side of every connection without a word to the client, which learns of it
   * only at its next write, as after a firewall's or proxy's idle timeout.
   */
  dropSilently(): void;
  up(): void;
  close(): Promise<void>;
}

/** A TCP proxy to a server (PostgreSQL, Redis) that a test can take down and bring back. */
export async function startProxy(target: { hostname: string; port: number }): Promise<ClosableProxy> {
  let isDown = false;
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; silent: boolean }>();
  const server = net.createServer((client) => {
    if (isDown) return void client.destroy();
    const upstream = net.connect(target.port, target.hostname);
    const pair = { client, upstream, silent: false };
    pairs.add(pair);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.on('close', () => {
      if (!pair.silent) client.destroy();
    });
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
    dropSilently() {
      for (const pair of pairs) {
        pair.silent = true;
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.upstream.destroy();
        // The client's next bytes find nobody: its connection is reset.
        pair.client.once('data', () => pair.client.resetAndDestroy());
        pair.client.resume();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
