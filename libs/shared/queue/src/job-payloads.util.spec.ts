import { UnrecoverableError } from 'bullmq';
import { parseJob } from './job-payloads.util';
import {
  attemptJobId,
  JOB_QUEUE,
  JobName,
  jobsOf,
  QUEUE_CONSUMER,
  QueueName,
  startWebhookJobId,
} from './queue.constants';

const taskId = '0b5e8a4e-4c1f-4a8e-9a55-2f7d7c1d9a01';
const accountId = '1c6f9b5f-5d2a-4b9f-8b66-3e8e8d2eab02';
const webhook = { v: 2, taskId, accountId };

describe('parseJob', () => {
  it('returns each job kind typed, unknown fields and all', () => {
    expect(parseJob({ name: 'run-task', data: { v: 1, taskId } }, [JobName.RunTask])).toEqual({
      name: 'run-task',
      data: { v: 1, taskId },
    });
    const settle = { v: 1, taskId, accountId, outcome: 'release', requestId: 'r1' };
    expect(parseJob({ name: 'settle-task', data: settle }, [JobName.SettleTask]).data).toEqual(
      settle,
    );
    const ids = { v: 2, taskId, accountId, attempt: 2 };
    expect(parseJob({ name: 'deliver-webhook', data: ids }, [JobName.DeliverWebhook]).data).toBe(
      ids,
    );
    const retry = { ...webhook, attempt: 3, firstAttempt: 2 };
    expect(parseJob({ name: 'deliver-webhook', data: retry }, [JobName.DeliverWebhook]).data).toBe(
      retry,
    );
  });

  it.each([
    ['an unknown job name', 'nope', { v: 1, taskId }, /unknown job nope/],
    ['another queue’s job', 'settle-task', { v: 1, taskId }, /unknown job settle-task/],
    ['a payload that is not an object', 'run-task', 'x', /payload is not an object/],
    ['an unknown version', 'run-task', { v: 0, taskId }, /unsupported version 0/],
    ['a version from the future', 'run-task', { v: 3, taskId }, /unsupported version 3/],
    ['a task id that is not a UUID', 'run-task', { v: 1, taskId: 'x' }, /taskId must be a UUID/],
  ])('fails %s for good', (_what, name, data, message) => {
    const parse = () => parseJob({ name, data }, [JobName.RunTask]);
    expect(parse).toThrow(UnrecoverableError);
    expect(parse).toThrow(message);
  });

  it('runs a version-2 run job (queued before the upgrade) as the one shape, ids only', () => {
    const data = { v: 2, taskId, requestId: 'r1', task: { accountId, input: {} } };
    expect(parseJob({ name: 'run-task', data }, [JobName.RunTask]).data).toEqual({
      v: 1,
      taskId,
      requestId: 'r1',
    });
  });

  it('no longer takes a version-1 webhook job (URL and body in the job)', () => {
    const data = { v: 1, taskId, accountId, url: 'https://example.com/hook', payload: {} };
    expect(() => parseJob({ name: 'deliver-webhook', data }, [JobName.DeliverWebhook])).toThrow(
      /unsupported version 1/,
    );
  });

  it.each([
    [{ accountId: 'x' }, /accountId must be a UUID/],
    [{ outcome: 'refund' }, /outcome must be capture or release/],
  ])('checks a settle job’s fields (%o)', (change, message) => {
    const data = { v: 1, taskId, accountId, outcome: 'capture', ...change };
    expect(() => parseJob({ name: 'settle-task', data }, [JobName.SettleTask])).toThrow(message);
  });

  it.each([
    [{ accountId: 'x' }, /accountId must be a UUID/],
    [{ attempt: 0 }, /attempt must be an integer/],
    [{ attempt: 2, firstAttempt: 3 }, /firstAttempt must be an integer from 1 to attempt/],
    [{ event: 'completed' }, /event must be start/],
    [{ event: 'logs' }, /event must be start/],
  ])('checks a webhook job’s fields (%o)', (change, message) => {
    const data = { ...webhook, ...change };
    expect(() => parseJob({ name: 'deliver-webhook', data }, [JobName.DeliverWebhook])).toThrow(
      message,
    );
  });
});

describe('webhook job ids', () => {
  it('a start event’s delivery has ids of its own, so it never shadows the end’s', () => {
    const start = { ...webhook, event: 'start' as const, attempt: 2 };
    expect(parseJob({ name: 'deliver-webhook', data: start }, [JobName.DeliverWebhook]).data).toBe(
      start,
    );
    expect(attemptJobId(taskId, 1)).toBe(`webhook-${taskId}`);
    expect(attemptJobId(taskId, 2)).toBe(`webhook-${taskId}-2`);
    expect(attemptJobId(taskId, 1, 'start')).toBe(startWebhookJobId(taskId));
    expect(attemptJobId(taskId, 2, 'start')).toBe(`webhook-start-${taskId}-2`);
  });
});

describe('queues and their consumers', () => {
  it('routes every job name to exactly one queue, and every queue to one consuming app', () => {
    const routed = (Object.values(QueueName) as QueueName[]).flatMap((queue) => jobsOf(queue));
    expect(routed.sort()).toEqual(Object.values(JobName).sort());
    expect(Object.keys(JOB_QUEUE).sort()).toEqual(Object.values(JobName).sort());
    expect(new Set(Object.values(QUEUE_CONSUMER)).size).toBe(Object.values(QueueName).length);
  });
});
