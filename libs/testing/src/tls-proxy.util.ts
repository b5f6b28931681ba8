import { createConnection, type AddressInfo, type Socket } from 'node:net';
import { createServer } from 'node:tls';
import type { IssuedCertificate } from './test-tls-ca.util';

export interface TlsProxy {
  /** `https://127.0.0.1:<port>`: TLS here, plain TCP on to the target. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A TLS endpoint on 127.0.0.1 with `certificate` in front of a plain server
 * (an S3 test server, an HTTP receiver): what a load balancer terminating
 * TLS with a private CA's certificate looks like to our clients.
 */
export async function startTlsProxy(
  targetPort: number,
  certificate: IssuedCertificate,
): Promise<TlsProxy> {
  const open = new Set<Socket>();
  const server = createServer({ cert: certificate.cert, key: certificate.key }, (client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  // A client that refuses our certificate ends the handshake: not the proxy's failure.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
