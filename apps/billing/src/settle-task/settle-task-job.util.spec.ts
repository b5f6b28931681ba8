import { UnrecoverableError } from 'bullmq';
import { parseSettleTaskJob } from './settle-task-job.util';

const taskId = '0b8f4a52-6a55-4f7e-9d8e-3f1f6d1c2a10';
const accountId = '6f1c0f0e-2b8c-4f63-8f3b-1d2e3f4a5b6c';

describe('parseSettleTaskJob', () => {
  it('accepts a well-formed payload and drops extra keys', () => {
    expect(parseSettleTaskJob({ v: 1, taskId, accountId, outcome: 'capture', extra: 1 })).toEqual({
      v: 1,
      taskId,
      accountId,
      outcome: 'capture',
    });
  });

  it.each([
    null,
    'settle',
    { v: 2, taskId, accountId, outcome: 'capture' },
    { v: 1, taskId: 'nope', accountId, outcome: 'capture' },
    { v: 1, taskId, accountId: 42, outcome: 'release' },
    { v: 1, taskId, accountId, outcome: 'refund' },
  ])('fails %j for good', (data) => {
    expect(() => parseSettleTaskJob(data)).toThrow(UnrecoverableError);
  });
});
