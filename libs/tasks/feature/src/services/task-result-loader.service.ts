import { Injectable } from '@nestjs/common';
import { isTaskId, TaskRepository, TaskResultFields } from '@genhub/tasks-data-access';

interface Pending {
  accountId: string;
  id: string;
  resolve: (task: TaskResultFields | undefined) => void;
  reject: (error: unknown) => void;
}

/** Reads per statement at most; a larger backlog is read in several. */
export const RESULT_BATCH = 500;

/**
 * Result polling reads in batches: every poll that arrives in one turn of the
 * event loop shares ONE indexed read (`id = ANY(…)`), so under load a poll
 * costs a fraction of a round trip and of a statement instead of one each.
 * Unknown, foreign, malformed and deleted ids all answer undefined.
 */
@Injectable()
export class TaskResultLoader {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(private readonly tasks: TaskRepository) {}

  load(accountId: string, id: string): Promise<TaskResultFields | undefined> {
    if (!isTaskId(id)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.pending.push({ accountId, id, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.pending;
    this.pending = [];
    for (let i = 0; i < all.length; i += RESULT_BATCH)
      void this.read(all.slice(i, i + RESULT_BATCH));
  }

  private async read(batch: Pending[]): Promise<void> {
    try {
      const rows = await this.tasks.findResults([...new Set(batch.map((p) => p.id))]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const p of batch) {
        const row = byId.get(p.id.toLowerCase());
        p.resolve(row && row.accountId === p.accountId ? row : undefined);
      }
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}
