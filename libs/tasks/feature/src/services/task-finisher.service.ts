import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PubSubChannel as Channel, JobName, PubSubService } from '@genhub/queue';
import {
  CompletedFields,
  FailedFields,
  FinishingRun,
  OutboxItem,
  StoredTask as TaskEntity,
  TaskRepository,
} from '@genhub/tasks-data-access';
import { SETTLEMENT_PORT, SettlementPort } from '../ports/settlement.port';
import { WEBHOOK_DELIVERY_PORT, WebhookDeliveryPort } from '../ports/webhook-delivery.port';
import { toWebhookPayload } from '../util/task-views.util';
import { AccountBatcher } from '../util/account-batcher.util';
import { OutboxRelay, outboxItem } from './outbox-relay.service';

/** Settlement batches in flight per account from one process (one: each holds the balance row). */
export const SETTLEMENTS_PER_ACCOUNT = 1;
/**
 * Under load (decision 0118) all accounts' terminal writes share this many
 * lines per process: an account always lands in the same one, and terminal
 * writes that wait on a busy line settle together, whatever their accounts,
 * in one transaction. One batch in flight per lane.
 */
export const SETTLEMENT_LANES = 2;
/**
 * Terminal writes in flight in the process (running or waiting) from which
 * a new one goes through the lanes; below it, each account has its own line.
 */
export const SETTLEMENT_LANES_FROM_IN_FLIGHT = 8;
/** Terminal writes settled in one transaction at most. */
export const SETTLEMENT_BATCH = 64;

export type TaskEnding = { completed: CompletedFields } | { failed: FailedFields };

/**
 * The one way a task turns terminal, for a run and for the stuck-task sweeper
 * alike: ONE statement holding the conditional terminal update, the
 * settlement of its reservation (SETTLEMENT_PORT; whether it captures or
 * releases is the task flow's rule) and the DeliverWebhook outbox row, handed straight to
 * the relay; then the terminal notice. Whoever loses the conditional update
 * writes nothing, so the reservation is settled and the webhook sent exactly
 * once (docs/decisions/0090).
 */
@Injectable()
export class TaskFinisher {
  private readonly logger = new Logger(TaskFinisher.name);
  /**
   * Terminal statements per account, batched as reservations are; under load,
   * accounts share lanes (group commit, decision 0118).
   */
  private readonly lines: AccountBatcher;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly tasks: TaskRepository,
    private readonly pubsub: PubSubService,
    private readonly relay: OutboxRelay,
    @Inject(SETTLEMENT_PORT) private readonly settlement: SettlementPort,
    @Inject(WEBHOOK_DELIVERY_PORT) private readonly webhooks: WebhookDeliveryPort,
  ) {
    this.lines = new AccountBatcher(dataSource, {
      perLine: SETTLEMENTS_PER_ACCOUNT,
      lanes: SETTLEMENT_LANES,
      lanesFromInFlight: SETTLEMENT_LANES_FROM_IN_FLIGHT,
      maxBatch: SETTLEMENT_BATCH,
    });
  }

  /**
   * Finishes the task if it is still in a state that may finish and still at
   * the attempt the caller saw (`task.attempt`; a later claim supersedes it),
   * or — for a run that never claimed it (`unclaimedSince`, its start) — if
   * it is still `created`; returns the terminal row, or undefined when
   * another writer won.
   */
  async finish(
    task: TaskEntity,
    ending: TaskEnding,
    options: {
      /** The request that created the task, passed on to the webhook job for log correlation. */
      requestId?: string;
      unclaimedSince?: Date;
    } = {},
  ): Promise<TaskEntity | undefined> {
    const { requestId, unclaimedSince } = options;
    const run: FinishingRun = unclaimedSince ? { unclaimedSince } : task.attempt;
    // The webhook body, from the row as the terminal write will leave it.
    const terminal: TaskEntity = Object.assign(
      new TaskEntity(),
      task,
      'completed' in ending
        ? {
            status: 'completed',
            code: 0,
            error: null,
            outputs: ending.completed.outputs,
            outputKeys: ending.completed.outputKeys,
            timings: ending.completed.timings,
          }
        : {
            status: 'failed',
            code: ending.failed.code,
            error: ending.failed.error,
            outputs: [],
            timings: ending.failed.timings,
          },
    );
    // The webhook: its delivery (with the body, from the row as the terminal
    // write will leave it) opened by the same statement, and a job of ids.
    const announce: OutboxItem[] = [];
    const webhook = task.webhookUrl
      ? {
          taskId: task.id,
          accountId: task.accountId,
          url: task.webhookUrl,
          body: JSON.stringify(toWebhookPayload(terminal)),
        }
      : undefined;
    if (webhook)
      announce.push(
        outboxItem({
          name: JobName.DeliverWebhook,
          data: { v: 2, taskId: task.id, accountId: task.accountId, requestId },
        }),
      );
    const settlement = {
      taskId: task.id,
      accountId: task.accountId,
      status: 'completed' in ending ? ('completed' as const) : ('failed' as const),
    };
    const joined = {
      settle: (when: string) => this.settlement.settlementCte(settlement, when),
      deliver: webhook ? (when: string) => this.webhooks.deliveryCte(webhook, when) : undefined,
    };
    const finished = await this.lines.run(task.accountId, (manager) =>
      'completed' in ending
        ? this.tasks.completeAnnouncing(task.id, run, ending.completed, announce, joined, manager)
        : this.tasks.failAnnouncing(task.id, run, ending.failed, announce, joined, manager),
    );
    if (!finished) return undefined;
    this.settlement.counted?.(settlement, finished.settled);
    this.relay.handOver(finished.outbox);
    await this.pubsub
      .publish(Channel.TaskTerminal, task.id)
      .catch((e: Error) => this.logger.warn(`terminal notice for ${task.id}: ${e.message}`));
    // The row as written: what this process wrote, with what only the row knew.
    return Object.assign(terminal, finished.task);
  }
}
