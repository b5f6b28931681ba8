import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { CHAT_CATEGORY, LedgerRepository } from '@genhub/billing-data-access';
import { BillingModule } from '../billing.module';
import { LedgerAuditScheduler } from './ledger-audit.scheduler';

/** The billing app as it runs, on real PostgreSQL; the periodic timer is off and runOnce is called. */
describe('LedgerAuditScheduler (PostgreSQL)', () => {
  let app: INestApplication;
  let ledger: LedgerRepository;
  let dataSource: DataSource;

  beforeAll(async () => {
    const env = {
      ...process.env,
      PORT: '3998',
      LOG_LEVEL: 'silent',
      LEDGER_AUDIT_INTERVAL_MS: '0',
      LEDGER_AUDIT_HORIZON_MS: '60000',
    };
    const moduleRef = await Test.createTestingModule({
      imports: [BillingModule.forRoot(env)],
    }).compile();
    app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
    await app.init();
    dataSource = app.get(DataSource);
    ledger = app.get(LedgerRepository);
  });
  afterAll(() => app?.close());

  it("releases a chat reservation its gateway never settled, once it is older than the audit's horizon", async () => {
    const accountId = randomUUID();
    await ledger.openAccount({ accountId, currency: 'USD', initialUnits: 10_000 });
    const reserve = async (amountUnits: number) => {
      const completionId = randomUUID();
      const input = {
        accountId,
        taskId: completionId,
        amountUnits,
        model: 'm',
        category: CHAT_CATEGORY,
        apiKeyId: null,
      };
      expect(await ledger.reserve(dataSource.manager, input)).toEqual({ ok: true });
      return completionId;
    };
    const orphan = await reserve(4000);
    const live = await reserve(1000);
    await dataSource.query(
      `UPDATE billing.reservations SET created_at = now() - interval '2 minutes' WHERE task_id = $1`,
      [orphan],
    );

    await app.get(LedgerAuditScheduler).runOnce();

    expect(await ledger.balanceOf(accountId)).toMatchObject({
      balanceUnits: 10_000,
      reservedUnits: 1000,
    });
    const states: { task_id: string; state: string }[] = await dataSource.query(
      `SELECT task_id, state FROM billing.reservations WHERE account_id = $1`,
      [accountId],
    );
    expect(Object.fromEntries(states.map((r) => [r.task_id, r.state]))).toEqual({
      [orphan]: 'released',
      [live]: 'open',
    });
  });
});
