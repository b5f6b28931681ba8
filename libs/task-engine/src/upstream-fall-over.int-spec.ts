import { randomUUID } from 'node:crypto';
import { Test, TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  ConfigModule,
  DatabaseConfig,
  LogConfig,
  ProvidersConfig,
  RedisConfig,
  PepperConfig,
  SecurityConfig,
  StorageConfig,
  TaskConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { TASK_CODES } from '@genhub/errors';
import { ObservabilityModule } from '@genhub/observability';
import {
  AdapterRegistry,
  ModelCatalogue,
  buildProviders,
  parseProvidersFile,
} from '@genhub/providers';
import { QueueModule } from '@genhub/queue';
import {
  FakeFal,
  FakeOpenAi,
  InMemoryObjectStorage,
  InMemoryStorageModule,
  TINY_PNG,
} from '@genhub/testing';
import { RESERVATION_PORT, ReservationPort, ReservationRequest } from './ports/reservation.port';
import { SETTLEMENT_PORT, SettlementPort } from './ports/settlement.port';
import { WEBHOOK_DELIVERY_PORT, WebhookDeliveryPort } from './ports/webhook-delivery.port';
import { TasksFeatureModule } from './tasks-feature.module';
import { GetResultUseCase } from './use-cases/get-result/get-result.use-case';
import { RunTaskUseCase } from './use-cases/run-task/run-task.use-case';
import { SubmitTaskUseCase } from './use-cases/submit-task/submit-task.use-case';

const storage = new InMemoryObjectStorage();

const reservations: ReservationRequest[] = [];
/** Always reserves (nothing for real): the `reserved` CTE yields its row. */
const reservation: ReservationPort = {
  reservationCte: (request) => {
    reservations.push(request);
    return {
      sql: `reserved AS (SELECT $1::text AS task_id)`,
      params: [request.taskId],
      yields: 'reserved',
    };
  },
  shortfall: () => Promise.reject(new Error('shortfall asked after a reservation')),
};
/**
 * Records each settlement request (the run's ending; capture or release is the
 * task flow's rule) in a table, from the run's own terminal statement and only if it won.
 */
const settlement: SettlementPort = {
  settlementCte: (request, when) => ({
    sql: `settled AS (
      INSERT INTO public.fallover_settlements (task_id, outcome) SELECT $1::uuid, $2 WHERE ${when}
      RETURNING task_id)`,
    params: [request.taskId, request.status],
    yields: 'settled',
  }),
};

/** No task here asks for a webhook: a delivery opened would be a bug. */
const webhookDelivery: WebhookDeliveryPort = {
  deliveryCte: () => {
    throw new Error('no webhook expected');
  },
};

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
    moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          pieces: [
            LogConfig,
            DatabaseConfig,
            RedisConfig,
            StorageConfig,
            SecurityConfig,
            PepperConfig,
            TaskConfig,
            ProvidersConfig,
          ],
          // The fake upstreams' output URLs are on 127.0.0.1.
          env: { ...process.env, LOG_LEVEL: 'silent', ALLOW_PRIVATE_NETWORK_URLS: 'true' },
        }),
        ObservabilityModule.forRoot('fall-over-test'),
        DatabaseModule,
        QueueModule.forRoot(),
        InMemoryStorageModule.with(storage),
        TasksFeatureModule.forGateway({
          reservation: { provide: RESERVATION_PORT, useValue: reservation },
        }),
        TasksFeatureModule.forWorker({
          settlement: { provide: SETTLEMENT_PORT, useValue: settlement },
          webhookDelivery: { provide: WEBHOOK_DELIVERY_PORT, useValue: webhookDelivery },
        }),
      ],
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
    await ds.query(
      `CREATE TABLE IF NOT EXISTS public.fallover_settlements (task_id uuid NOT NULL, outcome text NOT NULL)`,
    );
  });

  async function settlementsOf(taskId: string): Promise<string[]> {
    const rows: { outcome: string }[] = await ds.query(
      `SELECT outcome FROM public.fallover_settlements WHERE task_id = $1`,
      [taskId],
    );
    return rows.map((r) => r.outcome);
  }
  afterAll(async () => {
    await moduleRef.close();
    await openai.close();
    await fal.close();
  });

  const image = (prompt: string) => ({
    accountId,
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
    expect(reservations.at(-1)).toMatchObject({ taskId: ack.id, amountUnits: 40_000 });
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
    // Settled once, in the run's terminal statement.
    expect(await settlementsOf(ack.id)).toEqual(['completed']);
    expect(reservations.filter((r) => r.taskId === ack.id)).toHaveLength(1);
  });

  it('every route fails transiently → failed with 5003 and the reservation released', async () => {
    openai.faults.push({ kind: 'fail', status: 500, body: {} });
    fal.scripts.push({ submit: { kind: 'fail', status: 503, body: { detail: 'Unavailable' } } });
    const ack = await submit.execute(image('all down'));
    expect((await run.execute({ taskId: ack.id })).outcome).toBe('failed');
    const { body } = await result.execute({ accountId, taskId: ack.id });
    expect(body).toMatchObject({ status: 'failed', code: 5003, outputs: [] });
    expect((body as { error: string }).error).toContain(TASK_CODES[5003].message);
    expect(await settlementsOf(ack.id)).toEqual(['failed']);
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
  });
});
