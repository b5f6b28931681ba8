import {
  createServer,
  IncomingHttpHeaders,
  RequestListener,
  Server,
  ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ReceiverBehaviour =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { kind: 'hang' };

/**
 * A real HTTP receiver on 127.0.0.1 that records every request. Hanging
 * responses are ended by `close()`. With `tls` (a certificate and its key) it
 * is an HTTPS receiver.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  port = 0;

  constructor(
    public behaviour: ReceiverBehaviour = { kind: 'status', status: 200 },
    private readonly tls?: { cert: string; key: string },
  ) {}

  static async start(
    behaviour?: ReceiverBehaviour,
    tls?: { cert: string; key: string },
  ): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(behaviour, tls);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  private listen(): Promise<void> {
    const handler: RequestListener = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests.push({
          at: Date.now(),
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const b = this.behaviour;
        if (b.kind === 'hang') {
          this.hanging.add(res);
          return;
        }
        res.writeHead(b.status, b.headers ?? {});
        res.end('ok');
      });
    };
    this.server = this.tls ? createHttpsServer(this.tls, handler) : createServer(handler);
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port on 127.0.0.1 with nothing listening (bound, read, released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
