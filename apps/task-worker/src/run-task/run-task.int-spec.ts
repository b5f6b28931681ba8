import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { JOB_OPTIONS, jobIdFor, redisConnection } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';

const root = join(__dirname, '../../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The built task-worker, SIGKILLed mid-task: its stalled job is run again and the task completes once. */
describe('task-worker process', () => {
  let ds: DataSource;
  let tasks: TaskRepository;
  let queue: Queue;
  const dir = mkdtempSync(join(tmpdir(), 'genhub-worker-'));
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    execFileSync('node', ['tools/build/build-app.cjs', 'task-worker'], { cwd: root });
    ds = new DataSource(dataSourceOptions({ url: process.env.DATABASE_URL as string }));
    await ds.initialize();
    tasks = new TaskRepository(ds);
    queue = new Queue('tasks', {
      connection: redisConnection(process.env.REDIS_URL as string),
      prefix: process.env.QUEUE_PREFIX,
    });
  }, 60_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await queue.close();
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function startWorker(port: number): ChildProcess {
    const child = spawn('node', ['dist/task-worker/apps/task-worker/src/main.js'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        TASK_LOCK_MS: '1000',
        STORAGE_DIR: join(dir, 'objects'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function statusOf(accountId: string, id: string) {
    return tasks.findOwnedTask(accountId, id);
  }

  it('recovers a task whose worker was SIGKILLed and completes it exactly once', async () => {
    const accountId = randomUUID();
    const id = randomUUID();
    await tasks.insert(ds.manager, {
      id,
      accountId,
      model: 'local/simulator/test',
      channel: 'stable',
      category: 'test',
      input: { prompt: 'survive', duration_ms: 2500 },
      webhookUrl: null,
      outputPrefix: 'crash',
      priceUnits: 1000,
      timeLimitMs: 60_000,
    });
    await queue.add(
      'run-task',
      { v: 1, taskId: id },
      { ...JOB_OPTIONS['run-task'], jobId: jobIdFor('run-task', id) },
    );

    const first = startWorker(39101);
    for (let i = 0; i < 200 && (await statusOf(accountId, id))?.status !== 'processing'; i++)
      await sleep(50);
    expect((await statusOf(accountId, id))?.status).toBe('processing');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    startWorker(39102);
    let task = await statusOf(accountId, id);
    for (let i = 0; i < 400 && task?.status !== 'completed'; i++) {
      await sleep(50);
      task = await statusOf(accountId, id);
    }
    expect(task?.status).toBe('completed');
    expect(task?.attempt).toBe(2);
    expect(task?.outputKeys).toEqual([`outputs/crash/${id}/0-r2.png`]);
    expect(existsSync(join(dir, 'objects', `outputs/crash/${id}/0-r2.png`))).toBe(true);
    // Nothing runs it again: the job is done and a third claim finds a terminal task.
    await sleep(1500);
    const after = await statusOf(accountId, id);
    expect(after?.attempt).toBe(2);
    expect(after?.finishedAt?.getTime()).toBe(task?.finishedAt?.getTime());
    const job = await queue.getJob(jobIdFor('run-task', id));
    expect(await job?.getState()).toBe('completed');
    expect(job?.returnvalue).toBe('completed');
  }, 60_000);
});
