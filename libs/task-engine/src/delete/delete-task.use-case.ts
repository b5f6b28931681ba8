import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DeleteTaskAnswerDto } from '@genhub/contracts/server';
import { AppException, TASK_ALREADY_ENDED_MESSAGE } from '@genhub/errors';
import { FairStage, PubSubChannel, JobName, PubSubService } from '@genhub/queue';
import { OBJECT_STORAGE, ObjectStorage } from '@genhub/storage';
import { isTerminal, OutboxRepository, TaskRepository } from '@genhub/tasks-data-access';
import { OutboxRelay, outboxItem } from '../outbox/outbox-relay.service';
import { settlementFor } from '../rules/settlement.rules';
import { canTransition } from '../rules/task-lifecycle.rules';

export interface DeleteTaskInput {
  accountId: string;
  taskId: string;
  /**
   * Only while it is open (a Replicate-compatible cancel, decision 0137): a task
   * found completed or failed is left as it is, outputs and all, with a 409.
   */
  onlyOpen?: boolean;
}

const MAX_RACE_RETRIES = 3;

/**
 * DELETE /api/v3/predictions/{id} (docs/interface.md, "Task states" and "Billing semantics"):
 * created → deleted + release; processing → deleted + cancel notice + capture;
 * completed → outputs deleted + deleted (already captured by its run);
 * failed → deleted (already released). The mark and its settle outbox row are
 * one transaction; the mark is conditional on the state that decided the
 * settlement, and a lost race re-reads and decides again.
 */
@Injectable()
export class DeleteTaskUseCase {
  private readonly logger = new Logger(DeleteTaskUseCase.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tasks: TaskRepository,
    private readonly outbox: OutboxRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly pubsub: PubSubService,
    private readonly relay: OutboxRelay,
    private readonly fairStage: FairStage,
  ) {}

  async execute(input: DeleteTaskInput): Promise<DeleteTaskAnswerDto> {
    for (let attempt = 0; attempt < MAX_RACE_RETRIES; attempt++) {
      const task = await this.tasks.findOwnedTask(input.accountId, input.taskId);
      if (!task) throw new AppException('not_found');
      if (input.onlyOpen && isTerminal(task.status))
        throw new AppException('conflict', { message: TASK_ALREADY_ENDED_MESSAGE });
      const settle = settlementFor({ path: 'deleted', from: task.status });
      if (task.status === 'completed' && task.outputKeys?.length) {
        // Output URLs stop serving at once (before the row says deleted).
        await this.storage.delete(task.outputKeys);
      }
      const announced = await this.dataSource.transaction(async (manager) => {
        if (
          !canTransition(task.status, 'deleted') ||
          !(await this.tasks.markDeleted(manager, task.accountId, task.id, task.status))
        )
          return undefined;
        if (settle === 'none') return [];
        return this.outbox.add(manager, [
          outboxItem({
            name: JobName.SettleTask,
            data: { v: 1, taskId: task.id, accountId: task.accountId, outcome: settle },
          }),
        ]);
      });
      if (!announced) continue;
      this.relay.handOver(announced);
      // A waiting task leaves its line (one already handed over finds its row deleted and never runs).
      if (task.status === 'created')
        await this.fairStage
          .remove(task.accountId, task.id)
          .catch((e: Error) => this.logger.warn(`fair stage remove of ${task.id}: ${e.message}`));
      // The run stops (processing only); event streams end with `deleted` (any status).
      const notices =
        task.status === 'processing'
          ? [PubSubChannel.TaskCancel, PubSubChannel.TaskStatus]
          : [PubSubChannel.TaskStatus];
      await Promise.all(
        notices.map((channel) =>
          this.pubsub
            .publish(channel, task.id)
            .catch((e: Error) =>
              this.logger.warn(`${channel} notice for ${task.id}: ${e.message}`),
            ),
        ),
      );
      return { id: task.id, status: 'deleted' };
    }
    throw new AppException('conflict', { message: 'The task changed state, please retry' });
  }
}
