import { PubSubChannel, pubSubChannelName } from '../queue.constants';
import type { RedisClient } from '../redis-connection.util';
import { FAIR_STAGE_LUA, PACE_BUCKET_MS } from './fair-stage.lua';

/**
 * Virtual time one dispatch costs an account of weight 1; weight w pays
 * STRIDE_UNIT / w (840 is divisible by every weight from 1 to 8, so virtual
 * times stay integers).
 */
const STRIDE_UNIT = 840;

/** How an account is scheduled: its weight (its level's, LEVEL_WEIGHTS), and the operator's optional cap. */
export interface AccountShare {
  weight: number;
  /** Tasks of the account running at once at most; null or absent: no cap (the default). */
  maxConcurrentTasks?: number | null;
}

/** A task waiting in the stage: its account, and the request that submitted it (for logs). */
export interface StagedTask {
  accountId: string;
  taskId: string;
  requestId?: string;
}

/** A task taken out of the stage, leased to its taker until its run ends (see `take`). */
export interface TakenTask extends StagedTask {
  /** When it was added to the stage (ms since the epoch): its wait is the queue's wait. */
  stagedAt?: number;
}

/** What `expired` did with a lease its taker stopped renewing. */
export interface ExpiredLeases {
  /** Back at the front of their accounts' lines, to run again. */
  restaged: TakenTask[];
  /** Past the restarts allowed: out of the stage (the stuck-task sweep ends them). */
  abandoned: TakenTask[];
}

/** Where a waiting task stands: tasks ahead of it under fair order, and when it should start. */
export interface FairPosition {
  ahead: number;
  /**
   * Milliseconds until it should start at the pace tasks were taken over the
   * last 10–20 s (ahead ÷ pace); 0 with nothing ahead; null when nothing was
   * taken lately (no pace to go by).
   */
  estimatedStartMs: number | null;
}

export interface TakeOptions {
  /**
   * A list key whose length (jobs already in the run queue, not yet
   * started) is subtracted from the count.
   */
  waitingAhead?: string;
  /** Runs that ended since the last call: out of the stage, no longer counted against their accounts' caps. */
  finished?: readonly StagedTask[];
  /**
   * Publish each of `finished` on PubSubChannel.TaskTerminal from the same
   * script (the caller's runs left the notice to it): one round trip fewer
   * per task.
   */
  announceFinished?: boolean;
  /**
   * The caller takes as this taker: what was handed to it and not yet
   * popped (`nextHanded`) comes first, and, given fewer tasks than it asked
   * for, it is registered idle for `idleMs` with the rest as its free slots:
   * the next adds to an empty stage hand it their tasks. A take that gets all
   * it asked for (or asks for none) ends the registration.
   */
  taker?: { id: string; idleMs: number };
}

export interface FairStageOptions {
  /**
   * A task counts as running for its account's cap from the moment it is
   * taken until its end is reported (`take`'s `finished`); an entry older
   * than this is dropped (an end that was lost: its worker died), so a cap
   * never stays used for good.
   */
  runningLeaseMs: number;
}

type Reply = (string | number)[];
type FairCommands = Record<
  keyof typeof FAIR_STAGE_LUA,
  (...args: (string | number)[]) => Promise<Reply>
>;

/**
 * The fair stage between submit and the run queue (issue 36, decision 0133):
 * each account's waiting tasks in submit order, and the accounts with tasks
 * waiting ordered by virtual time (stride scheduling, a weighted round
 * robin): each task taken advances its account by `STRIDE_UNIT / weight`;
 * an account that starts waiting joins at the current virtual time, so
 * idling earns no credit. An account at its operator cap waits aside
 * (`held`) until one of its runs finishes. Choosing the next task is
 * O(log n) in the accounts waiting; every call is one Lua script, on keys
 * under the queue prefix (one Cluster slot with a hash-tagged prefix).
 *
 * Keys (`<prefix>:fair:…`): `ready` and `held` (zsets, account → virtual
 * time), `clock`, `strides` and `caps` (hashes by account), `line:<account>`
 * (list of task ids), `members` (hash task → account and request id: every
 * task waiting or running, so a re-sent add is a no-op), `running:<account>`
 * (zset task → when taken: the cap's count), `leases` (zset task → when its
 * taker last renewed it), `restarts` (hash task → times its lease
 * expired), `idle` (zset taker → when its registration lapses) with
 * `idle-slots` (hash taker → its free slots), and `inbox:<taker>` (list of
 * the tasks an add handed it, each already leased to it; decision 0143).
 */
export class FairStage {
  private readonly keys: string[];
  private readonly base: string;
  private readonly workChannel: string;
  private readonly terminalChannel: string;
  /** The client the scripts were last defined on (the connection may be replaced). */
  private defined?: RedisClient;

  /** `connection`: the Redis client to use (the run queue's own, so the same topology and slot). */
  constructor(
    private readonly connection: () => Promise<RedisClient>,
    prefix: string,
    private readonly options: FairStageOptions,
  ) {
    this.base = `${prefix}:fair:`;
    this.workChannel = pubSubChannelName(prefix, PubSubChannel.FairWork);
    this.terminalChannel = pubSubChannelName(prefix, PubSubChannel.TaskTerminal);
    this.keys = [
      'ready',
      'held',
      'clock',
      'strides',
      'caps',
      'members',
      'leases',
      'restarts',
      'idle',
      'idle-slots',
    ].map((key) => this.base + key);
  }

  private async redis(): Promise<RedisClient> {
    const client = await this.connection();
    if (this.defined !== client) {
      for (const [name, lua] of Object.entries(FAIR_STAGE_LUA))
        client.defineCommand(name, { numberOfKeys: this.keys.length, lua });
      this.defined = client;
    }
    return client;
  }

  private async call(command: keyof FairCommands, ...args: (string | number)[]): Promise<Reply> {
    const commands = (await this.redis()) as unknown as FairCommands;
    return commands[command](...this.keys, this.base, Date.now(), ...args);
  }

  /**
   * Queues a task behind its account's earlier ones (a task already waiting
   * is left as it is). True when the stage had nothing to hand out before:
   * idle workers were woken (PubSubChannel.FairWork, published by the same
   * script).
   */
  async add(task: StagedTask, share: AccountShare): Promise<boolean> {
    return this.addAll([{ task, share }]);
  }

  /** `add` for several tasks in one call (a relay's batch), in their order. */
  async addAll(items: readonly { task: StagedTask; share: AccountShare }[]): Promise<boolean> {
    if (!items.length) return false;
    const [, wake] = await this.call(
      'genhubFairAdd',
      this.options.runningLeaseMs,
      this.workChannel,
      ...items.flatMap(({ task, share }) => [
        task.accountId,
        task.taskId,
        task.requestId ?? '',
        strideOf(share),
        share.maxConcurrentTasks ?? 0,
      ]),
    );
    return wake === 1;
  }

  /**
   * Takes up to `count` tasks in fair order, each leased to the caller (who
   * runs it, renews the lease while it runs, and reports its end with a later
   * take's `finished`) and counted as running for its account. In the same
   * call: the runs in `finished` ended, and leave the stage.
   */
  async take(count: number, options: TakeOptions = {}): Promise<TakenTask[]> {
    const { waitingAhead = '', finished = [], announceFinished = false, taker } = options;
    const flat = await this.call(
      'genhubFairTake',
      this.options.runningLeaseMs,
      count,
      waitingAhead,
      finished.length,
      ...finished.flatMap((t) => [t.accountId, t.taskId]),
      announceFinished ? this.terminalChannel : '',
      taker?.id ?? '',
      taker?.idleMs ?? 0,
    );
    const taken: TakenTask[] = [];
    for (let i = 0; i < flat.length; i += 4)
      taken.push(takenTask(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]));
    return taken;
  }

  /**
   * The next task an add handed to this taker (see TakeOptions.taker),
   * waiting up to `waitSeconds` for one on `blocking`, a connection of the
   * caller's own (the wait holds it); undefined when none came.
   */
  async nextHanded(
    takerId: string,
    blocking: RedisClient,
    waitSeconds: number,
  ): Promise<TakenTask | undefined> {
    const popped = await blocking.blpop(`${this.base}inbox:${takerId}`, waitSeconds);
    if (!popped) return undefined;
    // ADD's item: account, task, when added, then the request id (which may hold spaces).
    const [accountId, taskId, stagedAt, ...request] = popped[1].split(' ');
    return takenTask(accountId, taskId, request.join(' '), stagedAt);
  }

  /** A connection of its own for `nextHanded`, on the stage's topology; the caller closes it. */
  async blockingConnection(): Promise<RedisClient> {
    const blocking = (await this.connection()).duplicate() as RedisClient;
    // Its waits fail while Redis is away, and the caller says so: no unhandled 'error' events.
    blocking.on('error', () => undefined);
    return blocking;
  }

  /** The caller still runs these tasks: their leases start again from now. How many it still held. */
  async renew(taskIds: readonly string[]): Promise<number> {
    if (!taskIds.length) return 0;
    const [renewed] = await this.call(
      'genhubFairRenew',
      this.options.runningLeaseMs,
      0,
      ...taskIds,
    );
    return Number(renewed);
  }

  /**
   * The caller's run of this task failed for want of its own infrastructure
   * (the database away): its lease lapses after `delayMs` instead of the
   * whole lease, and `expired` then restages it like a dead taker's (counted
   * against its restarts).
   */
  async retryLater(taskId: string, leaseMs: number, delayMs: number): Promise<void> {
    await this.call('genhubFairRenew', this.options.runningLeaseMs, delayMs - leaseMs, taskId);
  }

  /**
   * Leases not renewed for `leaseMs` (their taker died, or lost Redis that
   * long), at most `limit`: each goes back to the front of its account's
   * line, or leaves the stage once it has been restaged `maxRestarts` times
   * (a task that kills its workers must not kill them all).
   */
  async expired(leaseMs: number, limit: number, maxRestarts: number): Promise<ExpiredLeases> {
    const flat = await this.call(
      'genhubFairExpired',
      this.options.runningLeaseMs,
      leaseMs,
      limit,
      maxRestarts,
    );
    const found: ExpiredLeases = { restaged: [], abandoned: [] };
    for (let i = 0; i < flat.length; i += 3)
      found[flat[i] === 'abandoned' ? 'abandoned' : 'restaged'].push({
        taskId: String(flat[i + 1]),
        accountId: String(flat[i + 2]),
      });
    return found;
  }

  /** Tasks taken and never started (their taker is shutting down): back at the front of their lines. */
  async release(tasks: readonly TakenTask[]): Promise<void> {
    if (!tasks.length) return;
    await this.call(
      'genhubFairRelease',
      this.options.runningLeaseMs,
      ...tasks.flatMap((t) => [t.accountId, t.taskId]),
    );
  }

  /** Takes a waiting task out (its deletion); whether it was waiting. */
  async remove(accountId: string, taskId: string): Promise<boolean> {
    const [removed] = await this.call(
      'genhubFairRemove',
      this.options.runningLeaseMs,
      accountId,
      taskId,
    );
    return removed === 1;
  }

  /** The account's weight and cap from now on (the admin API changed them). */
  async setShare(accountId: string, share: AccountShare): Promise<void> {
    await this.call(
      'genhubFairShare',
      this.options.runningLeaseMs,
      accountId,
      strideOf(share),
      share.maxConcurrentTasks ?? 0,
    );
  }

  /** Whether the task waits in the stage or runs under one of its leases (recovery counts it as live). */
  async holds(taskId: string): Promise<boolean> {
    return (await (await this.redis()).hexists(this.keys[5], taskId)) === 1;
  }

  /**
   * Where each waiting task stands: tasks ahead of it in fair order, plus
   * `queuedAhead` (the run queue's jobs not yet started). Absent for a task
   * not waiting here, or further back than `scanLimit` in its account's line.
   */
  async positions(
    taskIds: readonly string[],
    queuedAheadKey: string,
    scanLimit: number,
  ): Promise<Map<string, FairPosition>> {
    const found = new Map<string, FairPosition>();
    if (!taskIds.length) return found;
    const flat = await this.call(
      'genhubFairPositions',
      this.options.runningLeaseMs,
      queuedAheadKey,
      scanLimit,
      ...taskIds,
    );
    const [previous, current] = flat.slice(taskIds.length).map(Number);
    // Taken per ms over the previous bucket and the part of the current one gone by.
    const pace = (previous + current) / (PACE_BUCKET_MS + (Date.now() % PACE_BUCKET_MS));
    taskIds.forEach((id, i) => {
      const ahead = Number(flat[i]);
      if (ahead < 0) return;
      const estimatedStartMs = ahead === 0 ? 0 : pace > 0 ? Math.round(ahead / pace) : null;
      found.set(id, { ahead, estimatedStartMs });
    });
    return found;
  }

  /** Tasks waiting and accounts waiting (the metrics' totals); members less leases is what waits. */
  async size(): Promise<{ tasks: number; accounts: number }> {
    const redis = await this.redis();
    const [members, leased, ready, held] = await Promise.all([
      redis.hlen(this.keys[5]),
      redis.zcard(this.keys[6]),
      redis.zcard(this.keys[0]),
      redis.zcard(this.keys[1]),
    ]);
    return { tasks: Math.max(0, members - leased), accounts: ready + held };
  }
}

function takenTask(
  accountId: string | number,
  taskId: string | number,
  requestId: string | number,
  stagedAt: string | number,
): TakenTask {
  return {
    accountId: String(accountId),
    taskId: String(taskId),
    ...(requestId ? { requestId: String(requestId) } : {}),
    ...(stagedAt ? { stagedAt: Number(stagedAt) } : {}),
  };
}

function strideOf(share: AccountShare): number {
  return Math.max(1, Math.round(STRIDE_UNIT / share.weight));
}
