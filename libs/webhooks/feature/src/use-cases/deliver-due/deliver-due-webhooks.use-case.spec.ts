import type { WebhookConfig } from '@genhub/config';
import type {
  DueDelivery,
  RecordAttemptInput,
  WebhookDeliveryRepository,
} from '@genhub/webhooks-data-access';
import type { SendResult, WebhookSender } from '../../dispatch/webhook-sender.service';
import {
  CLAIM_MARGIN_MS,
  DeliverDueWebhooksUseCase,
  RECORD_WINDOW_MS,
} from './deliver-due-webhooks.use-case';

const delivery = (n: number): DueDelivery => ({
  taskId: `task-${n}`,
  event: 'completed',
  accountId: 'account',
  url: 'http://127.0.0.1:1/hook',
  body: '{}',
  attempts: 0,
  createdAt: new Date(),
  requestId: null,
});

/** The use case over a repository that logs its statements and a sender that answers 200 or 500. */
function setup(status = 200) {
  const statements: { records: RecordAttemptInput[]; limit: number; leaseMs: number }[] = [];
  const deliveries = {
    recordAndClaim: jest.fn(
      async (records: RecordAttemptInput[], limit: number, leaseMs: number) => {
        statements.push({ records: [...records], limit, leaseMs });
        return {
          recorded: records.map(() => true),
          claimed: Array.from({ length: Math.min(limit, 1) }, (_, i) => delivery(100 + i)),
        };
      },
    ),
    releaseDue: jest.fn(async () => undefined),
  } as unknown as WebhookDeliveryRepository;
  const sent: SendResult = {
    kind: 'sent',
    startedAt: new Date(),
    durationMs: 3,
    result: { ok: status < 300, statusCode: status, error: null },
  };
  const sender = { send: jest.fn(async () => sent) } as unknown as WebhookSender;
  const config = {
    WEBHOOK_TIMEOUT_MS: 1000,
    WEBHOOK_RETRY_DELAYS_MS: [0, 2000, 4000],
  } as WebhookConfig;
  return { useCase: new DeliverDueWebhooksUseCase(deliveries, sender, config), statements };
}

describe('DeliverDueWebhooksUseCase', () => {
  it('records a finished attempt with the next claim: one statement for both', async () => {
    const { useCase, statements } = setup();
    const attempted = useCase.attempt(delivery(1));
    await new Promise((r) => setImmediate(r));
    expect(statements).toHaveLength(0); // waiting for a claim to ride with
    const claimed = await useCase.claim(5);
    expect(claimed.map((d) => d.taskId)).toEqual(['task-100']);
    expect(await attempted).toMatchObject({ kind: 'attempted', attempt: 1, outcome: 'delivered' });
    expect(statements).toEqual([
      {
        records: [expect.objectContaining({ taskId: 'task-1', attempt: 1, outcome: 'delivered' })],
        limit: 5,
        leaseMs: 1000 + CLAIM_MARGIN_MS,
      },
    ]);
  });

  it('writes a record alone when no claim comes within the window', async () => {
    const { useCase, statements } = setup();
    const started = Date.now();
    await useCase.attempt(delivery(1));
    expect(Date.now() - started).toBeGreaterThanOrEqual(RECORD_WINDOW_MS - 2);
    expect(statements).toEqual([
      { records: [expect.objectContaining({ taskId: 'task-1' })], limit: 0, leaseMs: 11_000 },
    ]);
  });

  it('makes a failed attempt due again after its retry delay, in its record', async () => {
    const { useCase, statements } = setup(500);
    expect(await useCase.attempt(delivery(1))).toMatchObject({
      kind: 'attempted',
      outcome: 'failed',
      nextAttemptInMs: 2000,
    });
    expect(statements[0].records[0]).toMatchObject({ outcome: 'failed', nextDueInMs: 2000 });
  });

  it('claims at once when no statement runs, and one claim per statement', async () => {
    const { useCase, statements } = setup();
    await Promise.all([useCase.claim(3), useCase.claim(4)]);
    expect(statements.map((s) => s.limit)).toEqual([3, 4]);
  });
});
