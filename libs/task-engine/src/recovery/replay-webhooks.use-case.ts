import type { DataSource } from 'typeorm';
import {
  attemptJobId,
  DeliverWebhookJob,
  JobName,
  jobIdFor,
  QueueName,
  replayJobId,
} from '@genhub/queue';
import { OutboxRepository, taskFromRow } from '@genhub/tasks-data-access';
import { webhookBodyOf } from '@genhub/tasks-feature';
import { WebhookDeliveryRepository } from '@genhub/webhooks-data-access';
import { RecoveryQueues } from './recovery-queues.service';
import { RecoveryRepository } from './recovery.repository';

export interface ReplayFilter {
  /** Only tasks finished at or after this time. */
  since?: Date;
  accountId?: string;
  taskId?: string;
  /** A delivery that is missing or still pending counts as lost only after this long. */
  minAgeMs: number;
  dryRun: boolean;
}

export interface ReplayReport {
  dry_run: boolean;
  /** Terminal tasks with a webhook whose delivery was abandoned, lost or never made. */
  found: { abandoned: number; stalled: number; missing: number };
  /** Skipped: a delivery job for it is still queued, or another replay claimed it first. */
  skipped: number;
  replayed: number;
  task_ids: string[];
}

/**
 * `webhooks:replay`: a fresh delivery round for terminal tasks whose webhook
 * never reached the receiver — abandoned after its attempts, left pending
 * with no job (Redis lost it), or never started. Each replay claims the
 * delivery and writes its outbox row in one transaction (so a replay is
 * enqueued exactly when it was claimed, and two replays cannot both run),
 * then the outbox is drained. The round's attempts continue the task's
 * numbering (attempt 4, 5, 6 after 3 abandoned ones) and carry the same
 * webhook-id; the body is rebuilt from the task row (docs/decisions/0066).
 */
export class ReplayWebhooksUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: RecoveryQueues,
  ) {}

  async execute(filter: ReplayFilter): Promise<ReplayReport> {
    const { dataSource, queues } = this;
    const deliveries = new WebhookDeliveryRepository(dataSource);
    const outbox = new OutboxRepository();
    const report: ReplayReport = {
      dry_run: filter.dryRun,
      found: { abandoned: 0, stalled: 0, missing: 0 },
      skipped: 0,
      replayed: 0,
      task_ids: [],
    };
    const candidates = new RecoveryRepository(dataSource).replayCandidates({
      staleBefore: new Date(Date.now() - filter.minAgeMs),
      since: filter.since,
      accountId: filter.accountId,
      taskId: filter.taskId,
    });

    for await (const rows of candidates) {
      for (const row of rows) {
        const task = taskFromRow(row);
        // A format that sends nothing for this ending (a Replicate events filter) has nothing to replay.
        const body = webhookBodyOf(task);
        if (body === undefined) continue;
        const seen = row.delivery_status
          ? { status: row.delivery_status, attempts: row.delivery_attempts ?? 0 }
          : undefined;
        report.found[seen ? (seen.status === 'abandoned' ? 'abandoned' : 'stalled') : 'missing']++;
        if (await nextJobIsLive(queues, row.id, seen?.attempts ?? 0)) {
          report.skipped++;
          continue;
        }
        if (filter.dryRun) {
          report.task_ids.push(row.id);
          continue;
        }
        const claimed = await dataSource.transaction(async (manager) => {
          const attempts = await deliveries.claimForReplay(
            manager,
            {
              taskId: task.id,
              accountId: task.accountId,
              url: task.webhookUrl as string,
              body,
            },
            seen,
          );
          if (attempts === undefined) return false;
          const firstAttempt = attempts + 1;
          const job: DeliverWebhookJob = {
            v: 2,
            taskId: task.id,
            accountId: task.accountId,
            attempt: firstAttempt,
            firstAttempt,
          };
          await outbox.add(manager, [
            {
              jobName: JobName.DeliverWebhook,
              jobId: replayJobId(task.id, firstAttempt),
              payload: job,
            },
          ]);
          return true;
        });
        if (!claimed) {
          report.skipped++;
          continue;
        }
        report.replayed++;
        report.task_ids.push(task.id);
      }
    }
    if (!filter.dryRun && report.replayed) await queues.drainOutbox(dataSource);
    return report;
  }
}

/** A job that would make the next attempt is still queued: the delivery is not lost. */
async function nextJobIsLive(
  queues: RecoveryQueues,
  taskId: string,
  attempts: number,
): Promise<boolean> {
  const ids = [
    attempts === 0 ? jobIdFor(JobName.DeliverWebhook, taskId) : attemptJobId(taskId, attempts + 1),
    replayJobId(taskId, attempts + 1),
  ];
  for (const id of ids) if (await queues.isLive(QueueName.Webhooks, id)) return true;
  return false;
}
