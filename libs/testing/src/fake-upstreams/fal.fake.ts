import { ServerResponse } from 'node:http';
import {
  FakeUpstreamServer,
  Fault,
  TINY_PNG,
  UpstreamRequest,
  applyFault,
  json,
} from './upstream-server.fake';

/** How the next queue request behaves. */
export interface FalScript {
  /** Fault of the submit request. */
  submit?: Fault;
  /** Status polls answered IN_QUEUE / IN_PROGRESS before COMPLETED. */
  pendingPolls?: number;
  /** Fault of every status poll. */
  status?: Fault;
  /** Fault of the result request (a failed run: fal answers the result with the error). */
  result?: Fault;
  /** Result body (default: one image URL). */
  output?: unknown;
}

interface QueueRequest {
  id: string;
  app: string;
  script: FalScript;
  polls: number;
}

/**
 * A fake fal queue API: submit (`POST /{model_id}`), status
 * (`GET /{app}/requests/{id}/status`), result (`GET /{app}/requests/{id}`),
 * cancel (`PUT /{app}/requests/{id}/cancel`), with the documented bodies.
 */
export class FakeFal {
  readonly scripts: FalScript[] = [];
  readonly queue = new Map<string, QueueRequest>();
  private next = 0;
  private constructor(readonly server: FakeUpstreamServer) {}

  static async start(): Promise<FakeFal> {
    const server = new FakeUpstreamServer();
    const fake = new FakeFal(server);
    server.handler = (req, res) => fake.handle(req, res);
    await server.listen();
    return fake;
  }

  get baseUrl(): string {
    return this.server.url;
  }

  get requests(): UpstreamRequest[] {
    return this.server.requests;
  }

  get cancels(): string[] {
    return this.requests
      .filter((r) => r.method === 'PUT' && r.path.endsWith('/cancel'))
      .map((r) => r.path);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private handle(req: UpstreamRequest, res: ServerResponse): void {
    // Routes match the path alone: the official client polls `…/status?logs=0`.
    const path = req.path.split('?')[0];
    if (req.method === 'GET' && path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return void res.end(TINY_PNG);
    }
    const request = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
    if (request) {
      const q = this.queue.get(request[2]);
      if (!q) return json(res, 404, { detail: 'Request not found' });
      if (req.method === 'GET' && request[3] === '/status') {
        if (applyFault(this.server, res, q.script.status)) return;
        const pending = q.polls++ < (q.script.pendingPolls ?? 0);
        const status = pending ? (q.polls === 1 ? 'IN_QUEUE' : 'IN_PROGRESS') : 'COMPLETED';
        return json(res, pending ? 202 : 200, {
          status,
          ...(pending ? { queue_position: 0 } : {}),
          ...this.urls(q),
        });
      }
      if (req.method === 'PUT' && request[3] === '/cancel')
        return json(res, 202, { status: 'CANCELLATION_REQUESTED' });
      if (req.method === 'GET' && !request[3]) {
        if (applyFault(this.server, res, q.script.result)) return;
        // fal names the request of every answer in x-fal-request-id (the client reads it).
        return json(
          res,
          200,
          q.script.output ?? {
            images: [{ url: `${this.server.url}/files/${q.id}.png`, content_type: 'image/png' }],
            seed: 1,
          },
          { 'x-fal-request-id': q.id },
        );
      }
    }
    if (req.method === 'POST') {
      const script = this.scripts.shift() ?? {};
      if (applyFault(this.server, res, script.submit)) return;
      // The status and result paths use the app id only, not an endpoint sub-path (fal-ai/flux/dev → fal-ai/flux).
      const app = path.slice(1).split('/').slice(0, 2).join('/');
      const q: QueueRequest = { id: `r${++this.next}`, app, script, polls: 0 };
      this.queue.set(q.id, q);
      return json(res, 200, { request_id: q.id, ...this.urls(q) });
    }
    json(res, 404, { detail: 'Not found' });
  }

  private urls(q: QueueRequest) {
    const base = `${this.server.url}/${q.app}/requests/${q.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }
}
