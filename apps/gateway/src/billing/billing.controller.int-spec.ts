import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  type AccountBalances,
  type AccountScheduling,
  AccountsFeatureModule,
  CreateAccountUseCase,
  IssueApiKeyUseCase,
} from '@genhub/accounts-feature';
import { BillingDataAccessModule, LedgerRepository } from '@genhub/billing-data-access';
import { ConfigModule } from '@genhub/config';
import { DatabaseModule } from '@genhub/database';
import { AppException } from '@genhub/errors';
import { ObservabilityModule } from '@genhub/observability';
import { QueueModule } from '@genhub/queue';
import { SERVICES } from '@genhub/service';
import { BillingHttpModule } from './billing-http.module';
import { httpStatus } from '../filters/error-bodies.util';

/** The ledger behind the admin use-cases, as the gateway binds it (test copy). */
@Injectable()
class TestBalances implements AccountBalances {
  constructor(private readonly ledger: LedgerRepository) {}
  open(manager: EntityManager, input: Parameters<AccountBalances['open']>[1]) {
    return this.ledger.openAccount(input, manager);
  }
  topUp(input: { accountId: string; amountUnits: number }) {
    return this.ledger.topUp(input);
  }
  balanceOf(accountId: string) {
    return this.ledger.balanceOf(accountId);
  }
  async balancesOf(accountIds: readonly string[]) {
    const views = await this.ledger.balancesOf(accountIds);
    return new Map(views.map((view) => [view.accountId, view]));
  }
  keySpend(): Promise<Map<string, number>> {
    return Promise.resolve(new Map());
  }
  resetKeySpend(): Promise<void> {
    return Promise.resolve();
  }
}

/** No scheduler here: these specs change no account's level or cap. */
@Injectable()
class TestScheduling implements AccountScheduling {
  shareChanged(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Stand-in for the gateway's exception filter (issue-3-accounts): the status
 * an AppException carries, 500 for anything else. Enough to prove these
 * endpoints refuse bad input with AppException(invalid_request), never a crash.
 */
@Catch()
class StatusFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse();
    const status = error instanceof AppException ? httpStatus(error) : 500;
    void reply.status(status).send({ code: status, error: (error as Error).message });
  }
}

/** The billing endpoints over real HTTP routing (Fastify inject), real PostgreSQL and auth. */
describe('billing endpoints', () => {
  let app: NestFastifyApplication;
  let ledger: LedgerRepository;
  let dataSource: DataSource;
  let accountId: string;
  let auth: { authorization: string };
  let keyId: string;
  const otherKeyId = randomUUID();

  beforeAll(async () => {
    const env = { ...process.env, PORT: '3998', LOG_LEVEL: 'silent' };
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({ pieces: [...SERVICES.gateway.pieces], env }),
        ObservabilityModule.forRoot('gateway-test'),
        DatabaseModule,
        QueueModule.forRoot(),
        AccountsFeatureModule.forRoot({
          imports: [BillingDataAccessModule],
          balances: TestBalances,
          scheduling: TestScheduling,
        }),
        BillingHttpModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
      logger: false,
    });
    app.useGlobalFilters(new StatusFilter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    ledger = app.get(LedgerRepository);
    dataSource = app.get(DataSource);
    const created = await app
      .get(CreateAccountUseCase)
      .execute({ currency: 'CNY', accountLevel: 'Gold', initialUnits: 10_000 });
    accountId = created.account.id;
    const key = await app.get(IssueApiKeyUseCase).execute({ accountId });
    auth = { authorization: `Bearer ${key.key}` };
    keyId = key.stored.id;
    // Two completed tasks (one by this key, one by another) and one open reservation.
    for (const [outcome, apiKeyId] of [
      ['capture', keyId],
      ['capture', otherKeyId],
      ['open', keyId],
    ] as const) {
      const taskId = randomUUID();
      await dataSource.transaction((m) =>
        ledger.reserve(m, {
          accountId,
          taskId,
          amountUnits: 1000,
          model: 'local/simulator/test',
          category: 'test',
          apiKeyId,
        }),
      );
      if (outcome === 'capture') await ledger.capture({ taskId, accountId });
    }
  });
  afterAll(() => app?.close());

  const get = (url: string, headers: Record<string, string> = auth) =>
    app.inject({ method: 'GET', url, headers });

  it('GET /v1/balance answers the net balance without an envelope', async () => {
    const res = await get('/v1/balance');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: 0.007, currency: 'CNY', account_level: 'Gold' });
  });

  it('refuses a request without a key', async () => {
    const res = await get('/v1/balance', {});
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Missing Authorization header');
    expect((await get('/api/v3/billings/export', {})).statusCode).toBe(401);
  });

  it('GET /api/v3/billings pages newest first in the envelope', async () => {
    const res = await get('/api/v3/billings?per_page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, message: 'success' });
    expect(body.data).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(body.data.records.map((r: { type: string }) => r.type)).toEqual(['usage', 'usage']);
    const page2 = (await get('/api/v3/billings?per_page=2&page=2')).json().data;
    expect(page2.records).toEqual([
      {
        id: expect.any(String),
        date: expect.any(String),
        type: 'top-up',
        amount: 0.01,
        balance_after: 0.01,
      },
    ]);
    const usage = (await get('/api/v3/billings?type=usage')).json().data;
    expect(usage.total).toBe(2);
  });

  it('GET /api/v3/usage sums the current month', async () => {
    const res = await get('/api/v3/usage');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      total_tasks: 2,
      total_cost: 0.002,
      period: new Date().toISOString().slice(0, 7),
      breakdown: { test: { tasks: 2, cost: 0.002 } },
    });
  });

  it('GET /api/v3/billings/export streams CSV', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await get(`/api/v3/billings/export?start_date=${today}&end_date=${today}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="billings-${today}-to-${today}.csv"`,
    );
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('id,date,type,amount,model,task_id,balance_after');
    expect(lines).toHaveLength(5); // header, 3 records, and the final CRLF
    expect(lines[1]).toMatch(
      /^[0-9a-f-]{36},\d{4}-\d{2}-\d{2},usage,-0\.001,local\/simulator\/test,[0-9a-f-]{36},0\.008$/,
    );
    expect(lines[3]).toMatch(/,top-up,0\.01,,,0\.01$/);
  });

  it.each([
    '/api/v3/billings?page=0',
    '/api/v3/billings?page=abc',
    '/api/v3/billings?per_page=101',
    '/api/v3/billings?per_page=1.5',
    '/api/v3/billings?type=refund',
    '/api/v3/billings?page=1&page=2',
    '/api/v3/usage?period=2025-13',
    '/api/v3/usage?start_date=2025-02-30',
    '/api/v3/usage?start_date=2025-03-02&end_date=2025-03-01',
    '/api/v3/billings/export?start_date=2025-03-02&end_date=2025-03-01',
    '/api/v3/billings?api_key_id=not-a-uuid',
    '/api/v3/usage?api_key_id=123',
    '/api/v3/billings/export?api_key_id=zz',
  ])('refuses %s with a 400', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
  });

  it("api_key_id keeps one key's records: billings, usage and the export (issue 37)", async () => {
    const mine = (await get(`/api/v3/billings?api_key_id=${keyId}`)).json().data;
    expect(mine).toMatchObject({ total: 1, page: 1 });
    expect(mine.records).toEqual([
      expect.objectContaining({ type: 'usage', amount: -0.001, balance_after: 0.009 }),
    ]);
    const other = (await get(`/api/v3/billings?api_key_id=${otherKeyId}&type=usage`)).json().data;
    expect(other.total).toBe(1);
    expect(other.records[0].balance_after).toBe(0.008);
    const none = (await get(`/api/v3/billings?api_key_id=${randomUUID()}`)).json().data;
    expect(none).toMatchObject({ total: 0, records: [] });

    expect((await get(`/api/v3/usage?api_key_id=${keyId}`)).json().data).toEqual({
      total_tasks: 1,
      total_cost: 0.001,
      period: new Date().toISOString().slice(0, 7),
      breakdown: { test: { tasks: 1, cost: 0.001 } },
    });

    const today = new Date().toISOString().slice(0, 10);
    const csv = await get(
      `/api/v3/billings/export?start_date=${today}&end_date=${today}&api_key_id=${otherKeyId}`,
    );
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n');
    expect(lines).toHaveLength(3); // header, the other key's record, the final CRLF
    expect(lines[1]).toMatch(/,usage,-0\.001,local\/simulator\/test,[0-9a-f-]{36},0\.008$/);
  });
});
