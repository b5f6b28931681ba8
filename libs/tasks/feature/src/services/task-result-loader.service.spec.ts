import { randomUUID } from 'node:crypto';
import type { TaskRepository, TaskResultFields } from '@genhub/tasks-data-access';
import { TaskResultLoader } from './task-result-loader.service';

function row(id: string, accountId: string): TaskResultFields {
  return {
    id,
    accountId,
    model: 'local/simulator/test',
    status: 'created',
    code: null,
    error: null,
    outputs: null,
    timings: null,
    createdAt: new Date(),
  };
}

describe('TaskResultLoader', () => {
  it('answers concurrent polls from one read, each scoped to its account', async () => {
    const owner = randomUUID();
    const [mine, foreign] = [randomUUID(), randomUUID()];
    const reads: string[][] = [];
    const repo = {
      findResults: async (ids: string[]) => {
        reads.push(ids);
        return [row(mine, owner), row(foreign, randomUUID())];
      },
    } as unknown as TaskRepository;
    const loader = new TaskResultLoader(repo);
    const answers = await Promise.all([
      loader.load(owner, mine),
      loader.load(owner, mine.toUpperCase()),
      loader.load(owner, foreign),
      loader.load(owner, randomUUID()),
      loader.load(owner, 'not-a-uuid'),
    ]);
    expect(answers.map((a) => a?.id)).toEqual([mine, mine, undefined, undefined, undefined]);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toHaveLength(4); // the malformed id is never read
  });

  it('rejects every poll of a batch whose read failed, and reads the next batch anew', async () => {
    let fail = true;
    const repo = {
      findResults: async () => {
        if (fail) throw new Error('db down');
        return [];
      },
    } as unknown as TaskRepository;
    const loader = new TaskResultLoader(repo);
    const owner = randomUUID();
    await expect(loader.load(owner, randomUUID())).rejects.toThrow('db down');
    fail = false;
    await expect(loader.load(owner, randomUUID())).resolves.toBeUndefined();
  });
});
