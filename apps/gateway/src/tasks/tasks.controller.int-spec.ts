import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionContext } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { ApiKeyGuard } from '@genhub/accounts-feature';
import { LedgerRepository } from '@genhub/billing-data-access';
import {
  ConfigModule,
  DatabaseConfig,
  LogConfig,
  RedisConfig,
  PepperConfig,
  SecurityConfig,
  StorageConfig,
  TaskConfig,
  ProvidersConfig,
} from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { ObservabilityModule } from '@genhub/observability';
import { QueueModule } from '@genhub/queue';
import { StorageModule } from '@genhub/storage';
import { TaskEventsAuthGuard } from './task-events-auth.guard';
import { EventStreamRevocation } from './event-stream-revocation.service';
import { TasksHttpModule } from './tasks-http.module';

/** The HTTP layer over the real ledger, PostgreSQL and Redis; authentication stubbed to one account. */
describe('task endpoints (HTTP)', () => {
  let app: NestFastifyApplication;
  const accountId = randomUUID();
  const dir = mkdtempSync(join(tmpdir(), 'genhub-gw-tasks-'));

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
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
          env: { ...process.env, LOG_LEVEL: 'silent', STORAGE_DIR: join(dir, 'objects') },
        }),
        ObservabilityModule.forRoot('gateway-test'),
        DatabaseModule,
        QueueModule.forRoot(),
        StorageModule.forRoot(),
        TasksHttpModule,
      ],
    })
      .overrideGuard(ApiKeyGuard)
      .useValue({
        canActivate: (ctx: ExecutionContext) => {
          ctx.switchToHttp().getRequest().account = {
            id: accountId,
            currency: 'USD',
            apiKeyLimits: { allowedModels: null, scopes: null, expiresAt: null, spendLimit: null },
          };
          return true;
        },
      })
      // Nor is the accounts domain here: stream revocation listens to its auth changes.
      .overrideProvider(EventStreamRevocation)
      .useValue({})
      .overrideGuard(TaskEventsAuthGuard)
      .useValue({
        canActivate: (ctx: ExecutionContext) => {
          ctx.switchToHttp().getRequest().eventsAccountId = accountId;
          return true;
        },
      })
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    await app
      .get(LedgerRepository)
      .openAccount({ accountId, currency: 'USD', initialUnits: 1_000_000 });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('submits, reserves in the ledger, answers the processing shape with Retry-After, deletes', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/local/simulator/test?prefix=a/b',
      payload: { prompt: 'hi', duration_ms: 60000 },
    });
    expect(res.statusCode).toBe(200);
    const ack = res.json();
    expect(Object.keys(ack).sort()).toEqual(['estimated_duration', 'id', 'status']);
    const balance = await app.get(LedgerRepository).balanceOf(accountId);
    expect(balance?.reservedUnits).toBe(1000);
    const poll = await app.inject({ method: 'GET', url: `/v1/requests/${ack.id}` });
    expect(poll.statusCode).toBe(200);
    expect(poll.headers['retry-after']).toBe('3');
    expect(poll.json()).toEqual({ id: ack.id, status: 'processing' });
    const del = await app.inject({ method: 'DELETE', url: `/api/v3/predictions/${ack.id}` });
    expect(del.json()).toEqual({
      code: 200,
      message: 'success',
      data: { id: ack.id, status: 'deleted' },
    });
  });

  it('lists models in the envelope with filters', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v3/models?category=test' });
    expect(res.json()).toMatchObject({
      code: 200,
      message: 'success',
      data: [{ id: 'local/simulator', name: 'Simulator', provider: 'local', category: 'test' }],
    });
    const none = await app.inject({ method: 'GET', url: '/api/v3/models?provider=nope' });
    expect(none.json().data).toEqual([]);
  });
});
