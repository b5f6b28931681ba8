import { ServerResponse } from 'node:http';
import {
  FakeUpstreamServer,
  Fault,
  TINY_PNG,
  UpstreamRequest,
  applyFault,
  json,
  parseJson,
} from './upstream-server.fake';

/** How the next prediction behaves. */
export interface ReplicateScript {
  /** Fault of the create request. */
  create?: Fault;
  /** Polls answered `processing` before the final state. */
  processingPolls?: number;
  /** Fault of every status poll. */
  poll?: Fault;
  /** Final state: succeeded with output (default: one PNG URL), or failed with an error string. */
  outcome?:
    | { status: 'succeeded'; output?: unknown }
    | { status: 'failed'; error: string }
    | { status: 'canceled' };
}

interface Prediction {
  id: string;
  script: ReplicateScript;
  polls: number;
  canceled: boolean;
}

/**
 * A fake Replicate HTTP API: create (`/v1/predictions`,
 * `/v1/models/{owner}/{name}/predictions`), get (`urls.get`) and cancel
 * (`urls.cancel`), with the documented prediction object.
 */
export class FakeReplicate {
  readonly scripts: ReplicateScript[] = [];
  readonly predictions = new Map<string, Prediction>();
  private next = 0;
  private constructor(readonly server: FakeUpstreamServer) {}

  static async start(): Promise<FakeReplicate> {
    const server = new FakeUpstreamServer();
    const fake = new FakeReplicate(server);
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

  /** Paths of the cancel requests received. */
  get cancels(): string[] {
    return this.requests.filter((r) => r.path.endsWith('/cancel')).map((r) => r.path);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private handle(req: UpstreamRequest, res: ServerResponse): void {
    // Routes match the path alone, whatever query a client adds.
    const path = req.path.split('?')[0];
    const create =
      req.method === 'POST' &&
      (path === '/v1/predictions' || /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(path));
    if (create) {
      const script = this.scripts.shift() ?? {};
      if (applyFault(this.server, res, script.create)) return;
      const id = `p${++this.next}`;
      const prediction: Prediction = { id, script, polls: 0, canceled: false };
      this.predictions.set(id, prediction);
      return json(res, 201, this.view(prediction, parseJson(req).input, 'starting'));
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const p = this.predictions.get(get[1]);
      if (!p) return json(res, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
      if (applyFault(this.server, res, p.script.poll)) return;
      if (p.canceled) return json(res, 200, this.view(p, {}, 'canceled'));
      if (p.polls++ < (p.script.processingPolls ?? 0))
        return json(res, 200, this.view(p, {}, 'processing'));
      const outcome = p.script.outcome ?? { status: 'succeeded' };
      return json(res, 200, {
        ...this.view(p, {}, outcome.status),
        output:
          outcome.status === 'succeeded'
            ? (outcome.output ?? [`${this.server.url}/files/${p.id}.png`])
            : null,
        error: outcome.status === 'failed' ? outcome.error : null,
      });
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && cancel) {
      const p = this.predictions.get(cancel[1]);
      if (!p) return json(res, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
      p.canceled = true;
      return json(res, 200, this.view(p, {}, 'canceled'));
    }
    if (req.method === 'GET' && path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return void res.end(TINY_PNG);
    }
    json(res, 404, { title: 'Not found', detail: 'Not found.', status: 404 });
  }

  private view(p: Prediction, input: unknown, status: string) {
    return {
      id: p.id,
      model: 'owner/model',
      version: 'v1',
      input,
      logs: '',
      output: null,
      error: null,
      status,
      created_at: new Date().toISOString(),
      urls: {
        get: `${this.server.url}/v1/predictions/${p.id}`,
        cancel: `${this.server.url}/v1/predictions/${p.id}/cancel`,
      },
    };
  }
}
