import {
  createServer,
  IncomingHttpHeaders,
  IncomingMessage,
  Server,
  ServerResponse,
} from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a fake upstream received. `closedEarly`: the client went away before the answer (a cancel). */
export interface UpstreamRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  closedEarly: boolean;
}

/** A real 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A real WAV: 16-bit mono 8 kHz, `samples` of silence. */
export function tinyWav(samples = 80): Buffer {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(data, 40);
  return b;
}

export type Handler = (req: UpstreamRequest, res: ServerResponse) => void | Promise<void>;

/**
 * The shared part of the fake upstreams: a node:http server on 127.0.0.1
 * (port 0) that records every request, lets a handler answer, and ends
 * hanging answers on close.
 */
export class FakeUpstreamServer {
  readonly requests: UpstreamRequest[] = [];
  private readonly open = new Set<ServerResponse>();
  private server!: Server;
  port = 0;

  /** Set by the fake that owns this server. */
  handler: Handler = (_req, res) => json(res, 501, {});

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Leaves the request unanswered until the client gives up or the server closes. */
  hang(res: ServerResponse): void {
    this.open.add(res);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.open.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const record: UpstreamRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks),
      closedEarly: false,
    };
    this.requests.push(record);
    res.on('close', () => {
      this.open.delete(res);
      if (!res.writableFinished) record.closedEarly = true;
    });
    try {
      await this.handler(record, res);
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: String(error) });
    }
  }
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function parseJson(req: UpstreamRequest): Record<string, unknown> {
  try {
    return JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** What a scripted call does instead of succeeding. */
export type Fault =
  /** Answer with this status and body (the provider's error shape). */
  | { kind: 'fail'; status: number; body?: unknown }
  /** Never answer (the client's time limit or cancel ends it). */
  | { kind: 'hang' };

/** Answers with a fault; returns false when there is none. */
export function applyFault(
  server: FakeUpstreamServer,
  res: ServerResponse,
  fault: Fault | undefined,
): boolean {
  if (!fault) return false;
  if (fault.kind === 'hang') server.hang(res);
  else json(res, fault.status, fault.body ?? {});
  return true;
}

/** Resolves once `check()` is true; fails after `ms`. */
export async function waitUntil(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
