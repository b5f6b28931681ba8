import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@genhub/database';
import { JOB_OPTIONS, jobIdFor, redisConnection } from '@genhub/queue';
import { TaskRepository } from '@genhub/tasks-data-access';
import { buildAppForTest, BuiltApp, closedPort, insertTask, sleep } from '@genhub/testing';

const root = join(__dirname, '../../../..');
/** A cold worker on a busy 2-core CI machine can take well over 10 s to boot and claim. */
const CLAIM_WINDOW_MS = 30_000;

/** The built task-worker, SIGKILLed mid-task: its stalled job is run again and the task completes once. */
describe('task-worker process', () => {
  let ds: DataSource;
  let tasks: TaskRepository;
  let queue: Queue;
  let worker: BuiltApp;
  const dir = mkdtempSync(join(tmpdir(), 'genhub-worker-'));
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    worker = buildAppForTest('task-worker', 'run-task');
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
    worker.remove();
  });

  function startWorker(port: number, env: NodeJS.ProcessEnv = {}): ChildProcess {
    const child = spawn(process.execPath, [worker.entry()], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        TASK_LOCK_MS: '1000',
        STORAGE_DIR: join(dir, 'objects'),
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function statusOf(accountId: string, id: string) {
    return tasks.findOwnedTask(accountId, id);
  }

  /** A queued simulator task that runs for `durationMs`. */
  async function queuedTask(durationMs: number, prefix: string) {
    const accountId = randomUUID();
    const id = randomUUID();
    await insertTask(ds, {
      id,
      accountId,
      model: 'local/simulator/test',
      channel: 'stable',
      category: 'test',
      input: { prompt: prefix, duration_ms: durationMs },
      webhookUrl: null,
      outputPrefix: prefix,
      priceUnits: 1000,
      timeLimitMs: 60_000,
    });
    await queue.add(
      'run-task',
      { v: 1, taskId: id },
      { ...JOB_OPTIONS['run-task'], jobId: jobIdFor('run-task', id) },
    );
    return { accountId, id };
  }

  async function untilStatus(t: { accountId: string; id: string }, status: string, ms: number) {
    let task = await statusOf(t.accountId, t.id);
    for (let i = 0; i < ms / 50 && task?.status !== status; i++) {
      await sleep(50);
      task = await statusOf(t.accountId, t.id);
    }
    return task;
  }

  /** How the process ended: Nest re-raises the signal once its shutdown hooks are done. */
  const exited = (child: ChildProcess) =>
    new Promise<string>((r) =>
      child.exitCode !== null || child.signalCode !== null
        ? r(String(child.exitCode ?? child.signalCode))
        : child.once('exit', (code, signal) => r(String(code ?? signal))),
    );

  it('SIGTERM lets the task in flight finish within SHUTDOWN_GRACE_MS, then exits', async () => {
    const t = await queuedTask(1500, 'sigterm');
    const worker = startWorker(await closedPort(), { SHUTDOWN_GRACE_MS: '10000' });
    expect((await untilStatus(t, 'processing', CLAIM_WINDOW_MS))?.status).toBe('processing');
    const signalled = Date.now();
    worker.kill('SIGTERM');
    expect(['0', 'SIGTERM']).toContain(await exited(worker));
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // It finished the run before exiting: completed by its one and only attempt.
    expect(await statusOf(t.accountId, t.id)).toMatchObject({ status: 'completed', attempt: 1 });
  }, 90_000);

  it('SIGTERM with a task longer than the grace: exits at the grace and the task is handed back', async () => {
    // The run (10 s) is far longer than the grace (500 ms) plus a slow exit,
    // so an exit within 5 s can only mean the worker stopped waiting for it.
    const t = await queuedTask(10_000, 'handback');
    const worker = startWorker(await closedPort(), { SHUTDOWN_GRACE_MS: '500' });
    expect((await untilStatus(t, 'processing', CLAIM_WINDOW_MS))?.status).toBe('processing');
    const signalled = Date.now();
    worker.kill('SIGTERM');
    await exited(worker);
    expect(Date.now() - signalled).toBeLessThan(5000);
    expect((await statusOf(t.accountId, t.id))?.status).toBe('processing');
    const next = startWorker(await closedPort());
    const done = await untilStatus(t, 'completed', CLAIM_WINDOW_MS + 10_000);
    expect(done).toMatchObject({ status: 'completed', attempt: 2 });
    next.kill('SIGKILL'); // it must not take the next test's job
    await exited(next);
  }, 120_000);

  it('recovers a task whose worker was SIGKILLed and completes it exactly once', async () => {
    const accountId = randomUUID();
    const id = randomUUID();
    await insertTask(ds, {
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

    const first = startWorker(await closedPort());
    const t = { accountId, id };
    expect((await untilStatus(t, 'processing', CLAIM_WINDOW_MS))?.status).toBe('processing');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    startWorker(await closedPort());
    const task = await untilStatus(t, 'completed', CLAIM_WINDOW_MS + 10_000);
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
  }, 120_000);

  it('runs the offline local models in the built worker: real PNG, WAV and animated WebP files', async () => {
    const accountId = randomUUID();
    const runs = [
      {
        model: 'local/image/text-to-image',
        category: 'text-to-image',
        input: { prompt: 'a red fox', aspect_ratio: '16:9', resolution: '512' },
      },
      {
        model: 'local/speech/text-to-speech',
        category: 'text-to-speech',
        input: { text: 'Hello from the built worker.' },
      },
      {
        model: 'local/video/text-to-video',
        category: 'text-to-video',
        input: { prompt: 'waves', duration: 1, fps: 4 },
      },
    ].map((run) => ({ ...run, id: randomUUID() }));
    for (const run of runs) {
      await insertTask(ds, {
        ...run,
        accountId,
        channel: 'stable',
        webhookUrl: null,
        outputPrefix: 'local',
        priceUnits: 1000,
        timeLimitMs: 60_000,
      });
      await queue.add(
        'run-task',
        { v: 1, taskId: run.id },
        { ...JOB_OPTIONS['run-task'], jobId: jobIdFor('run-task', run.id) },
      );
    }
    startWorker(await closedPort());
    const files: Buffer[] = [];
    for (const run of runs) {
      let task = await statusOf(accountId, run.id);
      for (let i = 0; i < 600 && task?.status !== 'completed' && task?.status !== 'failed'; i++) {
        await sleep(50);
        task = await statusOf(accountId, run.id);
      }
      expect({ model: run.model, status: task?.status, error: task?.error }).toEqual({
        model: run.model,
        status: 'completed',
        error: null,
      });
      files.push(readFileSync(join(dir, 'objects', task?.outputKeys?.[0] as string)));
    }
    const [png, wav, webp] = files;
    // PNG signature, then IHDR width and height.
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 288]);
    // RIFF/WAVE, PCM mono 22.05 kHz, more than half a second of samples.
    expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 12)]).toEqual(['RIFF', 'WAVE']);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24)]).toEqual([
      1, 1, 22_050,
    ]);
    expect(wav.length).toBeGreaterThan(22_050);
    // Animated WebP: an ANIM chunk and one ANMF chunk per frame (1 s × 4 fps).
    expect([webp.toString('ascii', 0, 4), webp.toString('ascii', 8, 12)]).toEqual(['RIFF', 'WEBP']);
    expect(webp.includes('ANIM')).toBe(true);
    expect(webp.toString('latin1').split('ANMF').length - 1).toBe(4);
  }, 90_000);
});
