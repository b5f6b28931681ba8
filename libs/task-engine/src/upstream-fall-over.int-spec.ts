import { randomUUID } from 'node:crypto';
import { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LedgerRepository } from '@genhub/billing-data-access';
import { TASK_CODES } from '@genhub/errors';
import {
  AdapterRegistry,
  ModelCatalogue,
  buildProviders,
  parseProvidersFile,
} from '@genhub/providers';
import { GetResultUseCase } from '@genhub/tasks-feature';
import {
  FakeFal,
  FakeOpenAi,
  InMemoryObjectStorage,
  InMemoryStorageModule,
  TINY_PNG,
} from '@genhub/testing';
import { engineTestingModule } from './engine-testing.fixture';
import { RunTaskUseCase } from './run/run-task.use-case';
import { SubmitTaskInput, SubmitTaskUseCase } from './submit/submit-task.use-case';

const storage = new InMemoryObjectStorage();

/** Channel fall-over through the real worker path: providers file → catalogue → RunTaskUseCase. */
describe('upstream channel fall-over (PostgreSQL + Redis + fake upstreams)', () => {
  let moduleRef: TestingModule;
  let openai: FakeOpenAi;
  let fal: FakeFal;
  let submit: SubmitTaskUseCase;
  let run: RunTaskUseCase;
  let result: GetResultUseCase;
  let ds: DataSource;
  const accountId = randomUUID();

  beforeAll(async () => {
    openai = await FakeOpenAi.start();
    fal = await FakeFal.start();
    const file = parseProvidersFile(
      JSON.stringify({
        upstreams: {
          openai: { kind: 'openai', base_url: openai.baseUrl, api_key_env: 'TEST_OPENAI_KEY' },
          fal: { kind: 'fal', base_url: fal.baseUrl, timeout_ms: 2000 },
        },
        models: [
          {
            slug: 'openai/gpt-image-1/text-to-image',
            name: 'GPT Image 1',
            category: 'image',
            input: 'text-to-image',
            time_limit_ms: 10_000,
            channels: {
              stable: [
                { upstream: 'openai', model: 'gpt-image-1', price: 0.04 },
                { upstream: 'fal', model: 'fal-ai/flux/dev', price: 0.05 },
              ],
            },
          },
        ],
      }),
      'test',
      { TEST_OPENAI_KEY: 'sk-test' },
    );
    const built = buildProviders({ ENABLE_SIMULATOR: false, ENABLE_LOCAL_MODELS: false }, file);
    moduleRef = await engineTestingModule({
      name: 'fall-over-test',
      storage: InMemoryStorageModule.with(storage),
      env: { ...process.env, ALLOW_PRIVATE_NETWORK_URLS: 'true' },
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
    ds = moduleRef.get(getDataSourceToken());
    await moduleRef
      .get(LedgerRepository)
      .openAccount({ accountId, currency: 'USD', initialUnits: 10_000_000_000 });
  });

  /** The task's reservations (amount, state) and the usage records it left, on the real ledger. */
  async function moneyOf(taskId: string) {
    const reservations: { amount_units: number; state: string }[] = await ds.query(
      `SELECT amount_units::int AS amount_units, state FROM billing.reservations WHERE task_id = $1`,
      [taskId],
    );
    const [{ usage }]: { usage: number }[] = await ds.query(
      `SELECT count(*)::int AS usage FROM billing.records WHERE task_id = $1 AND type = 'usage'`,
      [taskId],
    );
    return { reservations, usage };
  }

  afterAll(async () => {
    await moduleRef.close();
    await openai.close();
    await fal.close();
  });

  const image = (prompt: string): SubmitTaskInput => ({
    accountId,
    accountLevel: 'Bronze',
    provider: 'openai',
    model: 'gpt-image-1',
    runType: 'text-to-image',
    body: { prompt },
  });

  it('first upstream answers 503 → the task completes through the second route, reserved and captured once at the channel price', async () => {
    openai.faults.push({
      kind: 'fail',
      status: 503,
      body: { error: { message: 'overloaded', type: 'server_error', param: null, code: null } },
    });
    const ack = await submit.execute(image('fall over'));
    expect(await moneyOf(ack.id)).toEqual({
      reservations: [{ amount_units: 40_000, state: 'open' }],
      usage: 0,
    });
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('completed');

    expect(openai.requests.map((r) => r.path)).toEqual(['/v1/images/generations']);
    expect(fal.requests[0]).toMatchObject({ method: 'POST', path: '/fal-ai/flux/dev' });
    const { body } = await result.execute({ accountId, taskId: ack.id });
    if (body.status !== 'completed') throw new Error(`not completed: ${JSON.stringify(body)}`);
    expect(body.code).toBe(0);
    expect(body.outputs).toHaveLength(1);
    expect(storage.objects.get(storage.keyFromUrl(body.outputs[0]) as string)?.data).toEqual(
      TINY_PNG,
    );
    // Reserved once and captured once, in the run's terminal statement; no webhook asked, none opened.
    expect(await moneyOf(ack.id)).toEqual({
      reservations: [{ amount_units: 40_000, state: 'captured' }],
      usage: 1,
    });
    expect(
      await ds.query(`SELECT 1 FROM webhooks.deliveries WHERE task_id = $1`, [ack.id]),
    ).toEqual([]);
  });

  it('every route fails transiently → failed with 5003 and the reservation released', async () => {
    openai.faults.push({ kind: 'fail', status: 500, body: {} });
    fal.scripts.push({ submit: { kind: 'fail', status: 503, body: { detail: 'Unavailable' } } });
    const ack = await submit.execute(image('all down'));
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('failed');
    const { body } = await result.execute({ accountId, taskId: ack.id });
    expect(body).toMatchObject({ status: 'failed', code: 5003, outputs: [] });
    expect((body as { error: string }).error).toContain(TASK_CODES[5003].message);
    expect(await moneyOf(ack.id)).toEqual({
      reservations: [{ amount_units: 40_000, state: 'released' }],
      usage: 0,
    });
  });

  it('a permanent failure (moderation) does not fall over', async () => {
    openai.faults.push({
      kind: 'fail',
      status: 400,
      body: { error: { message: 'blocked', type: 'x', param: null, code: 'moderation_blocked' } },
    });
    const before = fal.requests.length;
    const ack = await submit.execute(image('refused'));
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('failed');
    expect((await result.execute({ accountId, taskId: ack.id })).body).toMatchObject({
      code: 1200,
    });
    expect(fal.requests.length).toBe(before);
    expect(await moneyOf(ack.id)).toEqual({
      reservations: [{ amount_units: 40_000, state: 'released' }],
      usage: 0,
    });
  });
});
