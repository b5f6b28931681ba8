import { randomUUID } from 'node:crypto';
import { ArgumentsHost, Catch, ExceptionFilter, ExecutionContext } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ApiKeyGuard } from '@genhub/accounts-feature';
import { ConfigModule, DatabaseConfig, LogConfig } from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { AppErrorCode, AppException } from '@genhub/errors';
import { ObservabilityModule } from '@genhub/observability';
import { WebhookDeliveryRepository } from '@genhub/webhooks-data-access';
import { GetWebhookDeliveriesUseCase } from '@genhub/webhooks-feature';
import { WebhooksHttpModule } from './webhooks-http.module';
import { httpStatus } from '../filters/error-bodies.util';

/** Stand-in for the gateway's exception filter (accounts domain): the catalogue's status and message. */
@Catch(AppException)
class CatalogueStatusFilter implements ExceptionFilter {
  catch(error: AppException, host: ArgumentsHost): void {
    host
      .switchToHttp()
      .getResponse()
      .status(httpStatus(error))
      .send({ code: httpStatus(error), message: error.message });
  }
}

describe('GET /api/v3/predictions/:task_id/webhook-deliveries', () => {
  let app: NestFastifyApplication;
  let repo: WebhookDeliveryRepository;
  const accountId = randomUUID();

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          pieces: [DatabaseConfig, LogConfig],
          env: { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent' },
        }),
        ObservabilityModule.forRoot('gateway-test'),
        DatabaseModule,
        WebhooksHttpModule,
      ],
    })
      // Authentication is the accounts domain's (tested there): here a fixed caller.
      .overrideGuard(ApiKeyGuard)
      .useValue({
        canActivate: (ctx: ExecutionContext) => {
          ctx.switchToHttp().getRequest().account = { id: accountId };
          return true;
        },
      })
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    app.useGlobalFilters(new CatalogueStatusFilter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    repo = new WebhookDeliveryRepository(app.get(DataSource));
  });
  afterAll(() => app.close());

  it('lists the delivery status and every attempt in the v3 envelope', async () => {
    const taskId = randomUUID();
    await repo.openDelivery({ taskId, accountId, url: 'https://hooks.example/x?a=1' });
    const startedAt = new Date('2026-01-02T03:04:05.678Z');
    await repo.recordAttempt({
      taskId,
      accountId,
      attempt: 1,
      startedAt,
      durationMs: 30000,
      statusCode: null,
      error: 'timed out after 30000 ms',
      outcome: 'failed',
    });
    await repo.recordAttempt({
      taskId,
      accountId,
      attempt: 2,
      startedAt: new Date(startedAt.getTime() + 32_000),
      durationMs: 41,
      statusCode: 200,
      error: null,
      outcome: 'delivered',
    });

    const res = await app.inject({
      method: 'GET',
      url: `/api/v3/predictions/${taskId}/webhook-deliveries`,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, message: 'success' });
    expect(body.data).toEqual({
      task_id: taskId,
      url: 'https://hooks.example/x?a=1',
      status: 'delivered',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
      delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/),
      attempts: [
        {
          attempt: 1,
          started_at: '2026-01-02T03:04:05.678',
          status_code: null,
          error: 'timed out after 30000 ms',
          duration_ms: 30000,
        },
        {
          attempt: 2,
          started_at: '2026-01-02T03:04:37.678',
          status_code: 200,
          error: null,
          duration_ms: 41,
        },
      ],
    });
  });

  it.each([
    [
      'another account’s task',
      async () => {
        const taskId = randomUUID();
        await repo.openDelivery({ taskId, accountId: randomUUID(), url: 'https://hooks.example/' });
        return taskId;
      },
    ],
    ['an unknown task', async () => randomUUID()],
    ['a malformed id', async () => 'not-a-task-id'],
  ])('answers Not found for %s', async (_, make) => {
    const taskId = await make();
    await expect(
      app.get(GetWebhookDeliveriesUseCase).execute({ accountId, taskId }),
    ).rejects.toEqual(new AppException(AppErrorCode.NotFound));
    const res = await app.inject({
      method: 'GET',
      url: `/api/v3/predictions/${taskId}/webhook-deliveries`,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, message: 'Not found' });
  });
});
