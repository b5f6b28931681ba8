import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { JOB_OPTIONS, JobName, jobIdFor, QueueName, redisConnection } from '@genhub/queue';
import {
  buildAppForTest,
  closedPort,
  createTestDatabase,
  dropTestDatabase,
  type LocalPlatform,
  startLocalPlatform,
  until,
} from '@genhub/testing';

/**
 * Two installations (each its own database) on one Redis, as the built apps
 * run (decision 0126): on one QUEUE_PREFIX the second refuses to start; on
 * their own prefixes both run their tasks to the end; and a run job whose
 * task the worker's database does not hold is kept and counted, never dropped.
 */
const REDIS_URL = process.env.REDIS_URL as string;
const TASKS = 200;

async function completedTasks(databaseUrl: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const [{ n }] = (
      await db.query(`SELECT count(*)::int AS n FROM tasks.tasks WHERE status = 'completed'`)
    ).rows as { n: number }[];
    return n;
  } finally {
    await db.end();
  }
}

async function submitMany(platform: LocalPlatform, key: string, count: number): Promise<void> {
  const statuses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${platform.gateway}/v1/local/simulator/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: `task ${i}`, num_outputs: 0 }),
      }).then((r) => r.status),
    ),
  );
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

describe('two installations on one Redis (built apps)', () => {
  jest.setTimeout(300_000);
  let first: LocalPlatform;

  beforeAll(async () => {
    first = await startLocalPlatform('install-a');
  });
  afterAll(async () => {
    await first?.stop();
  });

  it('refuses to start a second installation on the first one’s QUEUE_PREFIX, in one line', async () => {
    const second = await createTestDatabase('install-b');
    const worker = buildAppForTest('task-worker', 'install-b');
    try {
      const child = spawn(process.execPath, [worker.entry()], {
        env: {
          ...process.env,
          DATABASE_URL: second.url,
          QUEUE_PREFIX: first.queuePrefix,
          PORT: String(await closedPort()),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^task-worker: failed to start: QUEUE_PREFIX "${first.queuePrefix}" belongs to another installation ` +
            `\\(database ${databaseName(first.databaseUrl)} at 127\\.0\\.0\\.1:5432 \\(PostgreSQL system \\d+\\), since [^)]+\\), ` +
            `not to this one \\(database ${second.name} at 127\\.0\\.0\\.1:5432 \\(PostgreSQL system \\d+\\)\\): ` +
            'give each installation a QUEUE_PREFIX of its own',
        ),
      );
    } finally {
      worker.remove();
      await dropTestDatabase(second.name);
    }
  });

  it('runs every task of each of two installations with prefixes of their own', async () => {
    const second = await startLocalPlatform('install-c');
    try {
      const [firstKey, secondKey] = await Promise.all([
        first.accountWithKey(10),
        second.accountWithKey(10),
      ]);
      const before = await completedTasks(first.databaseUrl);
      await Promise.all([submitMany(first, firstKey, TASKS), submitMany(second, secondKey, TASKS)]);
      await until(
        async () =>
          (await completedTasks(first.databaseUrl)) === before + TASKS &&
          (await completedTasks(second.databaseUrl)) === TASKS,
        120_000,
      );
      // Nothing of either installation failed or went to the other.
      for (const platform of [first, second]) {
        const queue = new Queue(QueueName.Tasks, {
          connection: redisConnection(REDIS_URL),
          prefix: platform.queuePrefix,
        });
        try {
          expect(await queue.getFailedCount()).toBe(0);
        } finally {
          await queue.close();
        }
      }
    } finally {
      await second.stop();
    }
  });

  it('keeps, counts and logs a run job whose task its database does not hold', async () => {
    const taskId = randomUUID();
    const queue = new Queue(QueueName.Tasks, {
      connection: redisConnection(REDIS_URL),
      prefix: first.queuePrefix,
    });
    try {
      const jobId = jobIdFor(JobName.RunTask, taskId);
      await queue.add(JobName.RunTask, { v: 1, taskId }, { ...JOB_OPTIONS['run-task'], jobId });
      // Read once failed: a job fetched before it moved there still says what it said then.
      const job = await until(async () => {
        if ((await queue.getJobState(jobId)) !== 'failed') return undefined;
        return queue.getJob(jobId);
      }, 30_000);
      // Failed for good (no retries burnt), with its data intact for the owner to recover.
      expect(job.attemptsMade).toBe(1);
      expect(job.data).toEqual({ v: 1, taskId });
      expect(job.failedReason).toBe(
        `task ${taskId} is not in this installation's database: another installation shares QUEUE_PREFIX`,
      );
      const metrics = await (await fetch(`${first.url('task-worker')}/metrics`)).text();
      expect(metrics).toMatch(/genhub_task_outcomes_total\{[^}]*outcome="unknown-task"[^}]*\} 1/);
    } finally {
      await queue.close();
    }
  });
});
