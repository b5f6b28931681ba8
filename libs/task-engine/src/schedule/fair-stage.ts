import type { AccountLevel } from '@genhub/contracts';
import type { RedisClient } from '@genhub/queue';

/**
 * What each account level grants under contention: its share of the worker
 * slots relative to the others waiting (issue 36). Alone, any account gets
 * every slot.
 */
export const LEVEL_WEIGHTS = {
  Bronze: 1,
  Silver: 2,
  Gold: 4,
  Platinum: 8,
} as const satisfies Record<AccountLevel, number>;

/** Virtual time one dispatch costs an account: the heaviest weight's stride is 1 (integers). */
const STRIDE_UNIT = Math.max(...Object.values(LEVEL_WEIGHTS));

// KEYS: 1 ready (zset account → virtual time), 2 clock (the last dispatch's virtual time),
// 3 strides (hash account → stride). ARGV: 1 the per-account list key prefix, then per call.
// Every key shares the queue prefix, so on a Cluster (prefix `{genhub}`) one slot holds them.

/** ARGV 2 account, 3 task, 4 stride: appended to its account's line, which joins at the clock. */
const ADD_LUA = `
local line = ARGV[1] .. ARGV[2]
if redis.call('RPUSH', line, ARGV[3]) == 1 then
  local clock = tonumber(redis.call('GET', KEYS[2]) or '0')
  redis.call('ZADD', KEYS[1], clock, ARGV[2])
end
redis.call('HSET', KEYS[3], ARGV[2], ARGV[4])
return 1`;

/** ARGV 2 how many: the next tasks in fair order, as account, task, account, task… */
const TAKE_LUA = `
local out = {}
for i = 1, tonumber(ARGV[2]) do
  local top = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if #top == 0 then break end
  local account, time = top[1], tonumber(top[2])
  local line = ARGV[1] .. account
  local task = redis.call('LPOP', line)
  redis.call('SET', KEYS[2], time)
  if redis.call('LLEN', line) > 0 then
    local stride = tonumber(redis.call('HGET', KEYS[3], account) or '1')
    redis.call('ZADD', KEYS[1], time + stride, account)
  else
    redis.call('ZREM', KEYS[1], account)
    redis.call('HDEL', KEYS[3], account)
  end
  if task then
    out[#out + 1] = account
    out[#out + 1] = task
  end
end
return out`;

/** ARGV 2 account, 3 task: taken out of its line (a deleted task); 1 when it was there. */
const REMOVE_LUA = `
local line = ARGV[1] .. ARGV[2]
local removed = redis.call('LREM', line, 1, ARGV[3])
if redis.call('LLEN', line) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
end
return removed`;

type FairCommands = {
  genhubFairAdd(...args: string[]): Promise<number>;
  genhubFairTake(...args: string[]): Promise<string[]>;
  genhubFairRemove(...args: string[]): Promise<number>;
};

/**
 * The fair stage between submit and the run queue (issue 36; not wired into
 * the run path yet): each account's waiting tasks in submit order, and the
 * accounts with tasks waiting ordered by virtual time (stride scheduling, a
 * weighted round robin): each task taken advances its account by
 * `STRIDE_UNIT / weight`; an account that starts waiting joins at the
 * current virtual time, so idling earns no credit. Choosing the next task is
 * O(log n) in the accounts waiting; all in one Lua script per call.
 */
export class FairStage {
  private readonly keys: [string, string, string];
  private readonly lines: string;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    const base = `${prefix}:fair`;
    this.keys = [`${base}:ready`, `${base}:clock`, `${base}:strides`];
    this.lines = `${base}:line:`;
    redis.defineCommand('genhubFairAdd', { numberOfKeys: 3, lua: ADD_LUA });
    redis.defineCommand('genhubFairTake', { numberOfKeys: 3, lua: TAKE_LUA });
    redis.defineCommand('genhubFairRemove', { numberOfKeys: 3, lua: REMOVE_LUA });
  }

  private get commands(): FairCommands {
    return this.redis as unknown as FairCommands;
  }

  /** Queues a task behind its account's earlier ones. */
  async add(accountId: string, taskId: string, level: AccountLevel): Promise<void> {
    const stride = STRIDE_UNIT / LEVEL_WEIGHTS[level];
    await this.commands.genhubFairAdd(...this.keys, this.lines, accountId, taskId, String(stride));
  }

  /** Takes up to `count` tasks in fair order. */
  async take(count: number): Promise<{ accountId: string; taskId: string }[]> {
    const flat = await this.commands.genhubFairTake(...this.keys, this.lines, String(count));
    const taken: { accountId: string; taskId: string }[] = [];
    for (let i = 0; i < flat.length; i += 2)
      taken.push({ accountId: flat[i], taskId: flat[i + 1] });
    return taken;
  }

  /** Takes a waiting task out (its deletion); whether it was waiting. */
  async remove(accountId: string, taskId: string): Promise<boolean> {
    return (
      (await this.commands.genhubFairRemove(...this.keys, this.lines, accountId, taskId)) === 1
    );
  }
}
