import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobName, startWebhookJobId } from '@genhub/queue';
import type { StoredTask } from '@genhub/tasks-data-access';
import { startWebhookBodyOf } from '@genhub/tasks-feature';
import { OutboxRelay } from '../outbox/outbox-relay.service';
import { startWebhookStatement } from '../statements/task-engine.statements';

/**
 * A Replicate task's `start` webhook (decision 0137): when a run has claimed
 * the task, its delivery (the prediction as it is then) and the delivery
 * job's outbox row are written in one statement and the row handed to the
 * relay, as the finisher does for the task's end. Once per task: a claim
 * repeated after a worker died finds the delivery there and writes nothing.
 * A task that did not ask for `start` costs nothing: no statement is made.
 */
@Injectable()
export class StartWebhook {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
  ) {}

  /**
   * Opens the claimed task's `start` delivery unless it exists; says whether
   * this call opened it. Without a webhook asking for `start`: false at once.
   */
  async open(task: StoredTask, requestId?: string): Promise<boolean> {
    const body = startWebhookBodyOf(task);
    if (body === undefined || !task.webhookUrl) return false;
    const outbox = await startWebhookStatement(this.dataSource.manager, {
      delivery: {
        taskId: task.id,
        event: 'start',
        accountId: task.accountId,
        url: task.webhookUrl,
        body,
      },
      job: {
        jobName: JobName.DeliverWebhook,
        jobId: startWebhookJobId(task.id),
        payload: { v: 2, taskId: task.id, event: 'start', accountId: task.accountId, requestId },
      },
    });
    if (!outbox) return false;
    this.relay.handOver([outbox]);
    return true;
  }
}
