import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { FairStage, jobIdFor, JobName, QueueName } from '@genhub/queue';

/** How deep a position is looked for; a task further back has no position to show yet. */
export const POSITION_SCAN_LIMIT = 10_000;

const COMMAND = 'genhubQueuePositions';

/**
 * KEYS[1]: the wait list; ARGV: job ids. For each job, how many jobs are to
 * its right (ahead of it), or -1 when it is not among the POSITION_SCAN_LIMIT
 * nearest the front. One atomic snapshot. A few jobs: one LPOS each, scanning
 * from the front (the jobs about to run are found first); many: one pass over
 * the front of the list, so the cost is the list's, not list × streams.
 */
const POSITIONS_LUA = `
local length = redis.call('LLEN', KEYS[1])
local out = {}
if #ARGV <= 8 then
  for i, id in ipairs(ARGV) do
    local index = redis.call('LPOS', KEYS[1], id, 'RANK', -1, 'MAXLEN', ${POSITION_SCAN_LIMIT})
    out[i] = index and (length - 1 - index) or -1
  end
  return out
end
local from = math.max(0, length - ${POSITION_SCAN_LIMIT})
local ahead = {}
for i, id in ipairs(redis.call('LRANGE', KEYS[1], from, -1)) do
  ahead[id] = length - from - i
end
for i, id in ipairs(ARGV) do
  out[i] = ahead[id] or -1
end
return out`;

/** Where a waiting task stands: tasks ahead of it, and in how many ms it should start (null: no pace known). */
export interface QueuePosition {
  ahead: number;
  estimatedStartMs: number | null;
}

/**
 * Where waiting tasks stand. A task in the fair stage (decision 0133) by its
 * fair order (FairStage.positions: the run queue's waiting jobs, then the
 * stage's tasks chosen before it, with a start estimated at the pace tasks
 * are taken); a task already in the run queue (handed over, or with
 * FAIR_SCHEDULING off) by BullMQ's wait list: jobs are pushed on its left
 * and workers take from its right, so the jobs to the right of a task's job
 * are the tasks ahead of it.
 */
@Injectable()
export class QueuePositions {
  private defined?: object;

  constructor(
    @InjectQueue(QueueName.Tasks) private readonly queue: Queue,
    private readonly fairStage: FairStage,
  ) {}

  /** Each waiting task's position; absent for a task not waiting (not yet handed over, delayed, running). */
  async of(taskIds: readonly string[]): Promise<Map<string, QueuePosition>> {
    if (!taskIds.length) return new Map();
    const positions: Map<string, QueuePosition> = await this.fairStage.positions(
      taskIds,
      this.queue.toKey('wait'),
      POSITION_SCAN_LIMIT,
    );
    const inQueue = taskIds.filter((id) => !positions.has(id));
    for (const [id, ahead] of await this.inWaitList(inQueue))
      positions.set(id, { ahead, estimatedStartMs: ahead === 0 ? 0 : null });
    return positions;
  }

  private async inWaitList(taskIds: readonly string[]): Promise<Map<string, number>> {
    const positions = new Map<string, number>();
    if (!taskIds.length) return positions;
    const client = await this.queue.getBackend().client;
    if (this.defined !== client) {
      client.defineCommand(COMMAND, { numberOfKeys: 1, lua: POSITIONS_LUA, readOnly: true });
      this.defined = client;
    }
    const jobIds = taskIds.map((id) => jobIdFor(JobName.RunTask, id));
    const found = (await client.runCommand(COMMAND, [
      this.queue.toKey('wait'),
      ...jobIds,
    ])) as number[];
    taskIds.forEach((id, i) => {
      if (found[i] >= 0) positions.set(id, found[i]);
    });
    return positions;
  }
}
