import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GroupCommit } from '@genhub/database';
import { METRICS, MetricsService } from '@genhub/observability';
import { PubSubChannel, PubSubService } from '@genhub/queue';
import {
  CompletedFields,
  FailedFields,
  StoredTask,
  TaskStatus,
  type TerminalFields,
} from '@genhub/tasks-data-access';
import { webhookBodyOf } from '@genhub/tasks-feature';
import { allowedSources } from '../rules/task-lifecycle.rules';
import { settlementFor } from '../rules/settlement.rules';
import { endStatement } from '../statements/task-engine.statements';
import { ACCOUNT_LINES } from '../task-engine.constants';
import { WebhookWake } from './webhook-wake.service';

export type TaskEnding = { completed: CompletedFields } | { failed: FailedFields };

/**
 * The one way a task turns terminal, for a run and for the stuck-task sweeper
 * alike: ONE statement (endStatement) holding the conditional terminal
 * update, the settlement of its reservation (capture or release, as the
 * settlement rules say) and, when the task asked for one, its webhook
 * delivery with the body, due at once for the dispatcher to claim (decision
 * 0141), which is woken; then the terminal notice. Whoever loses the conditional
 * update writes nothing, so the reservation is settled and the webhook sent
 * exactly once (decision 0090).
 */
@Injectable()
export class TaskFinisher {
  private readonly logger = new Logger(TaskFinisher.name);
  /**
   * Terminal statements per account, batched as reservations are; under load,
   * accounts share lanes (group commit, decision 0118).
   */
  private readonly lines: GroupCommit;
  private readonly settlements: ReturnType<MetricsService['counter']>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly pubsub: PubSubService,
    private readonly webhooksDue: WebhookWake,
    metrics: MetricsService,
  ) {
    this.lines = new GroupCommit(dataSource, ACCOUNT_LINES);
    this.settlements = metrics.counter(METRICS.settlements);
  }

  /**
   * Finishes the task if it is still open and still at the attempt the caller
   * saw (`attempt`: the run's claim; null: whichever, for the sweeper); returns
   * the terminal row, or undefined when another writer won.
   */
  async finish(
    task: StoredTask,
    ending: TaskEnding,
    options: {
      /** The request that created the task, kept with the webhook delivery for its log lines. */
      requestId?: string;
      /** Only at this attempt; null: whichever (the stuck-task sweeper). Default: the task's. */
      attempt?: number | null;
      /** Publish the terminal notice (default); false: the caller does (see RunTaskInput.announcesEnd). */
      notice?: boolean;
    } = {},
  ): Promise<StoredTask | undefined> {
    const terminal: TerminalFields =
      'completed' in ending
        ? { status: TaskStatus.Completed, fields: ending.completed }
        : { status: TaskStatus.Failed, fields: ending.failed };
    // The row as the terminal write will leave it (the webhook body is made from it).
    const row: StoredTask = Object.assign(
      new StoredTask(),
      task,
      terminal.status === 'completed'
        ? {
            status: terminal.status,
            code: 0,
            error: null,
            outputs: terminal.fields.outputs,
            outputKeys: terminal.fields.outputKeys,
            timings: terminal.fields.timings,
          }
        : {
            status: terminal.status,
            code: terminal.fields.code,
            error: terminal.fields.error,
            outputs: [],
            timings: terminal.fields.timings,
          },
    );
    const outcome = settlementFor({ path: 'run-ended', status: terminal.status });
    // Its format may send nothing for this ending (a Replicate events filter): then no delivery.
    const body = task.webhookUrl ? webhookBodyOf(row) : undefined;
    const webhook =
      task.webhookUrl && body !== undefined
        ? {
            delivery: {
              taskId: task.id,
              event: 'completed' as const,
              accountId: task.accountId,
              url: task.webhookUrl,
              body,
              // The dispatcher holds back the first attempt if WEBHOOK_RETRY_DELAYS_MS says so.
              dueInMs: 0,
              requestId: options.requestId,
            },
          }
        : undefined;
    const ended = await this.lines.run(task.accountId, (manager) =>
      endStatement(manager, {
        id: task.id,
        from: allowedSources(terminal.status),
        attempt: options.attempt === undefined ? task.attempt : options.attempt,
        terminal,
        settlement: {
          taskId: task.id,
          accountId: task.accountId,
          outcome: outcome === 'capture' ? 'capture' : 'release',
        },
        webhook,
      }),
    );
    if (!ended) return undefined;
    this.settlements.inc({
      outcome: !ended.settled ? 'unchanged' : outcome === 'capture' ? 'captured' : 'released',
    });
    if (ended.deliveryOpened) this.webhooksDue.wake();
    if (options.notice !== false)
      await this.pubsub
        .publish(PubSubChannel.TaskTerminal, task.id)
        .catch((e: Error) => this.logger.warn(`terminal notice for ${task.id}: ${e.message}`));
    // The row as written: what this process wrote, with what only the row knew.
    return Object.assign(row, {
      attempt: ended.attempt,
      startedAt: ended.startedAt,
      finishedAt: ended.finishedAt,
    });
  }
}
