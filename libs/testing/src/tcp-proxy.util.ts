import { createConnection, createServer, Server, Socket } from 'node:net';

export interface TcpProxy {
  /** The port on 127.0.0.1 that forwards to the target. */
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /**
   * An outage: every open connection is reset and new ones are closed as soon
   * as they are accepted (what clients see when the server is down or restarting).
   */
  cut(): void;
  /** The server is back: new connections are forwarded again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a shared server (PostgreSQL, Redis),
 * so a test can take "the server" down and bring it back without touching the
 * real one. The listener stays open while cut, so the port is never reused.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;

  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: targetHost, port: targetPort });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    via(url: string): string {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      down = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      down = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
