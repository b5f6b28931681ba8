import {
  FakeUpstreamServer,
  Fault,
  TINY_PNG,
  UpstreamRequest,
  applyFault,
  json,
  parseJson,
  tinyWav,
} from './upstream-server.fake';

/**
 * A fake OpenAI-compatible API (images/generations, audio/speech,
 * audio/transcriptions) following the documented requests and responses.
 * Each call takes the next queued fault, else succeeds.
 */
export class FakeOpenAi {
  readonly faults: Fault[] = [];
  transcript = 'hello from the fake upstream';
  private constructor(readonly server: FakeUpstreamServer) {}

  static async start(): Promise<FakeOpenAi> {
    const server = new FakeUpstreamServer();
    const self = new FakeOpenAi(server);
    server.handler = (req, res): void => {
      if (applyFault(server, res, self.faults.shift())) return;
      if (req.method === 'POST' && req.path === '/v1/images/generations') {
        const body = parseJson(req);
        const n = typeof body.n === 'number' ? body.n : 1;
        const asUrl = body.response_format === 'url';
        const data: object[] = Array.from({ length: n }, () =>
          asUrl
            ? { url: `${server.url}/files/image.png` }
            : { b64_json: TINY_PNG.toString('base64') },
        );
        return json(res, 200, { created: Math.floor(Date.now() / 1000), data });
      }
      if (req.method === 'POST' && req.path === '/v1/audio/speech') {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        return void res.end(tinyWav());
      }
      if (req.method === 'POST' && req.path === '/v1/audio/transcriptions') {
        if (!req.headers['content-type']?.startsWith('multipart/form-data'))
          return json(
            res,
            400,
            error('Expected multipart/form-data', 'invalid_request_error', null, null),
          );
        return json(res, 200, { text: self.transcript });
      }
      if (req.method === 'GET' && req.path === '/files/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(TINY_PNG);
      }
      json(
        res,
        404,
        error(`Unknown path ${req.path}`, 'invalid_request_error', null, 'unknown_url'),
      );
    };
    await server.listen();
    return self;
  }

  /** The API base, as a providers file's `base_url` names it. */
  get baseUrl(): string {
    return `${this.server.url}/v1`;
  }

  get requests(): UpstreamRequest[] {
    return this.server.requests;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** OpenAI's documented error body. */
export function error(message: string, type: string, param: string | null, code: string | null) {
  return { error: { message, type, param, code } };
}
