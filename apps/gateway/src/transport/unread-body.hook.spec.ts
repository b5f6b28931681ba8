import Fastify, { FastifyInstance } from 'fastify';
import { connect, Socket } from 'node:net';
import { installUnreadBodyPolicy } from './unread-body.hook';

/**
 * The drain after an early refusal is bounded: a client that keeps sending
 * (or sends nothing more) cannot hold the connection past the limits.
 */
describe('installUnreadBodyPolicy', () => {
  const LIMITS = { maxBytes: 256 * 1024, maxMs: 400 };
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify();
    installUnreadBodyPolicy(app, LIMITS);
    // `/refuse` answers before reading anything, as an auth guard or a Content-Length check does.
    app.addContentTypeParser('application/x-unread', (_request, _payload, done) =>
      done(null, undefined),
    );
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_r, body, done) =>
      done(null, body),
    );
    app.post('/refuse', async (_request, reply) => reply.code(413).send({ refused: true }));
    app.post('/accept', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  /** How many connections the server holds open. */
  const openConnections = () =>
    new Promise<number>((resolve, reject) =>
      app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );

  /** Resolves with the time it took the server to drop every connection. */
  async function serverDropsAll(started: number, deadline: number): Promise<number> {
    while (Date.now() - started < deadline) {
      if ((await openConnections()) === 0) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the server still holds a connection after ${deadline} ms`);
  }

  /** Opens a socket, sends `head`, and reports what it received. */
  function open(head: string) {
    // Half-open allowed: the client keeps its side open after the server's FIN, as a
    // client still writing its body does.
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(head);
    return { socket, closed, started: Date.now(), received: () => received };
  }

  const post = (path: string, length: number, type = 'application/x-unread') =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

  /** Waits until the socket has received an answer (the refusal). */
  async function answered(client: ReturnType<typeof open>): Promise<void> {
    while (!client.received().includes('\r\n\r\n'))
      await new Promise((resolve) => setTimeout(resolve, 10));
  }

  afterEach(() => serverDropsAll(Date.now(), LIMITS.maxMs + 2000));

  it('closes after the refusal once the rest of the body has been read', async () => {
    const client = open(post('/refuse', 1000));
    await answered(client);
    expect(await openConnections()).toBe(1); // lingering: the body is still due
    client.socket.write(Buffer.alloc(1000));
    const after = await serverDropsAll(client.started, LIMITS.maxMs + 2000);
    expect(client.received()).toMatch(
      /^HTTP\/1\.1 413[\s\S]*connection: close[\s\S]*\{"refused":true\}$/i,
    );
    expect(after).toBeLessThan(LIMITS.maxMs);
    client.socket.destroy();
  });

  it('drops a client that stops sending once maxMs has passed', async () => {
    const client = open(post('/refuse', 1_000_000));
    client.socket.write(Buffer.alloc(10));
    await answered(client);
    const after = await serverDropsAll(client.started, LIMITS.maxMs + 2000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413/);
    client.socket.destroy();
    expect(after).toBeGreaterThanOrEqual(LIMITS.maxMs - 50);
    expect(after).toBeLessThan(LIMITS.maxMs + 2000);
  });

  it('drops a client that keeps sending past maxBytes', async () => {
    const client = open(post('/refuse', 100 * 1024 * 1024));
    let written = 0;
    const block = Buffer.alloc(64 * 1024);
    while (!client.socket.destroyed && written < 100 * 1024 * 1024) {
      written += block.length;
      if (!client.socket.write(block))
        await Promise.race([
          new Promise((resolve) => client.socket.once('drain', resolve)),
          client.closed,
        ]);
    }
    await client.closed;
    // Read up to the budget (the client got that far), cut off near it
    expect(written).toBeGreaterThan(LIMITS.maxBytes);
    // Cut off near the budget (plus what the kernels' socket buffers hold), not at 100 MB.
    expect(written).toBeLessThan(LIMITS.maxBytes + 16 * 1024 * 1024);
  });

  it('leaves answers to fully read requests alone: the connection stays open', async () => {
    const client = open(post('/accept', 3, 'application/octet-stream') + 'abc');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(client.received()).not.toMatch(/connection: close/i);
    expect(await openConnections()).toBe(1);
    client.socket.destroy();
  });
});
