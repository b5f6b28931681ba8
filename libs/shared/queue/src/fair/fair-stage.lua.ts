/**
 * How many accounts ahead of a task a position looks at one by one; each
 * further one counts for one task (an estimate that keeps a position at a
 * few ms of Redis time with 10,000 accounts waiting).
 */
export const POSITION_ACCOUNTS = 1000;

/** The pace of takes is counted in buckets this long (estimated start times). */
export const PACE_BUCKET_MS = 10_000;

/**
 * How long a task handed to an idle taker waits in its inbox at most: its
 * taker pops it within milliseconds, or, dead, never (its lease lapses and
 * EXPIRED restages it; the inbox goes with this).
 */
const INBOX_MS = 600_000;

/**
 * The fair stage's scripts (FairStage describes the keys). Each starts with
 * PRELUDE: KEYS 1 ready, 2 held, 3 clock, 4 strides, 5 caps, 6 members,
 * 7 leases, 8 restarts, 9 idle, 10 idle-slots; ARGV 1 the key base, 2 now
 * (ms), 3 the running lease (ms); each command's own arguments from ARGV 4 on.
 */
const PRELUDE = `
local base, now, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local function line(a) return base .. 'line:' .. a end
local function running(a) return base .. 'running:' .. a end
local function clock() return tonumber(redis.call('GET', KEYS[3]) or '0') end
-- The account's runs counted against its cap (entries past the lease dropped first).
local function runs(a)
  redis.call('ZREMRANGEBYSCORE', running(a), '-inf', now - lease)
  return redis.call('ZCARD', running(a))
end
-- Puts the account where it belongs: ready (tasks waiting, room under its cap), held (at its
-- cap) or neither (nothing waiting), at virtual time vt (default: where it is), never behind
-- the clock, so time spent idle or held earns no credit.
local function place(a, vt)
  vt = vt or redis.call('ZSCORE', KEYS[1], a) or redis.call('ZSCORE', KEYS[2], a) or 0
  vt = math.max(tonumber(vt), clock())
  if redis.call('LLEN', line(a)) == 0 then
    redis.call('ZREM', KEYS[1], a)
    redis.call('ZREM', KEYS[2], a)
    return
  end
  local cap = tonumber(redis.call('HGET', KEYS[5], a) or '0')
  if cap > 0 and runs(a) >= cap then
    redis.call('ZREM', KEYS[1], a)
    redis.call('ZADD', KEYS[2], vt, a)
  else
    redis.call('ZREM', KEYS[2], a)
    redis.call('ZADD', KEYS[1], vt, a)
  end
end
-- Back at the front of its account's line (a run that never started, or whose taker died).
local function restage(a, task)
  redis.call('ZREM', KEYS[7], task)
  redis.call('ZREM', running(a), task)
  redis.call('LPUSH', line(a), task)
  place(a)
end
-- Up to n tasks in fair order, each leased from now and counted against its account's cap →
-- account, task, request id, when it was added (ms; '' for a task added before that was kept), …
-- A task in a line with no membership (deleted, or ended while it waited again) is dropped.
local function takeNext(n)
  local out = {}
  while n > 0 do
    local top = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    if #top == 0 then break end
    local a, vt = top[1], tonumber(top[2])
    local task = redis.call('LPOP', line(a))
    local meta = task and redis.call('HGET', KEYS[6], task)
    if meta and not redis.call('ZSCORE', KEYS[7], task) then
      redis.call('SET', KEYS[3], vt)
      redis.call('ZADD', running(a), now, task)
      -- A thousandth of a ms apart: the leases keep the order taken (EXPIRED restages in it).
      redis.call('ZADD', KEYS[7], now + #out / 4000, task)
      local added, request = string.match(meta, '^%S+ (%d+) (.*)$')
      out[#out + 1] = a
      out[#out + 1] = task
      out[#out + 1] = request or string.match(meta, '^%S+ (.*)$') or ''
      out[#out + 1] = added or ''
      n = n - 1
      place(a, vt + tonumber(redis.call('HGET', KEYS[4], a) or '1'))
    else
      place(a)
    end
  end
  if #out > 0 then
    -- The pace: tasks taken per PACE_BUCKET_MS, the last few buckets kept (estimated starts).
    local bucket = base .. 'pace:' .. math.floor(now / ${PACE_BUCKET_MS})
    redis.call('INCRBY', bucket, #out / 4)
    redis.call('PEXPIRE', bucket, ${3 * PACE_BUCKET_MS})
  end
  return out
end
local function inbox(taker) return base .. 'inbox:' .. taker end
-- A taker's idle registration: its free slots, and until when (nil: as it was); none at 0.
local function register(taker, free, lapses)
  if free > 0 then
    if lapses then redis.call('ZADD', KEYS[9], lapses, taker) end
    redis.call('HSET', KEYS[10], taker, free)
  else
    redis.call('ZREM', KEYS[9], taker)
    redis.call('HDEL', KEYS[10], taker)
  end
end
local function share(a, stride, cap)
  redis.call('HSET', KEYS[4], a, stride)
  if tonumber(cap) > 0 then redis.call('HSET', KEYS[5], a, cap) else redis.call('HDEL', KEYS[5], a) end
end
`;

/**
 * ARGV 4 the work channel (published to, empty, on a wake; '' for none),
 * from 5 five per task: account, task, request id, stride, cap (0: none) →
 * {tasks added, wake (the stage had nothing ready and now has)}. When the
 * stage had nothing ready, what is now ready goes first to the takers that
 * said they are idle (TAKE's registration; the one with the most free slots
 * first), up to their free slots: taken for each as TAKE would (its turn had
 * come: nothing was ahead of it), and pushed to its inbox, where it waits on
 * it. Only what is left wakes the others: the notice goes out from the
 * script, so a submit at a moderate rate reaches a worker without a round
 * trip of its own.
 */
const ADD = `
local idle = redis.call('ZCARD', KEYS[1]) == 0
local added = 0
for i = 5, #ARGV, 5 do
  local a, task = ARGV[i], ARGV[i + 1]
  if redis.call('HSETNX', KEYS[6], task, a .. ' ' .. now .. ' ' .. ARGV[i + 2]) == 1 then
    redis.call('RPUSH', line(a), task)
    share(a, ARGV[i + 3], ARGV[i + 4])
    place(a)
    added = added + 1
  end
end
if idle then
  for _, lapsed in ipairs(redis.call('ZRANGEBYSCORE', KEYS[9], '-inf', '(' .. now)) do
    register(lapsed, 0)
  end
  while redis.call('ZCARD', KEYS[1]) > 0 do
    local taker, free = nil, 0
    local slots = redis.call('HGETALL', KEYS[10])
    for i = 1, #slots, 2 do
      if tonumber(slots[i + 1]) > free then taker, free = slots[i], tonumber(slots[i + 1]) end
    end
    if not taker then break end
    local handed = takeNext(free)
    for i = 1, #handed, 4 do
      redis.call('RPUSH', inbox(taker), handed[i] .. ' ' .. handed[i + 1] .. ' ' .. handed[i + 3] .. ' ' .. handed[i + 2])
    end
    redis.call('PEXPIRE', inbox(taker), ${INBOX_MS})
    register(taker, free - #handed / 4)
  end
end
local wake = idle and redis.call('ZCARD', KEYS[1]) > 0
if wake and ARGV[4] ~= '' then redis.call('PUBLISH', ARGV[4], '') end
return {added, wake and 1 or 0}`;

/**
 * ARGV 4 how many, 5 a list key whose length is taken off that (the run
 * queue's wait list; '' for none), 6 k, then k account/task pairs whose runs
 * ended (each leaves the stage: its lease, its place against its account's
 * cap, its membership; and, when ARGV 7 + 2k names a channel, its task id
 * is published there: the terminal notice rides on the take), then the
 * taker's id ('' for none) and how long its registration as idle lasts (ms)
 * → account, task, request id, when it was added (ms; '' for a task added
 * before that was kept), … in fair order, each leased to the caller from now
 * (renewed by \`renew\`, see EXPIRED). A taker's inbox comes first (tasks
 * ADD handed it that its own pop has not had) and counts against how many.
 * A taker that got fewer than it asked for is registered idle with the rest
 * as its free slots (ADD hands it what comes next); one that got them all is
 * not.
 */
const TAKE = `
local k = tonumber(ARGV[6])
local notices = ARGV[7 + 2 * k] or ''
local taker = ARGV[8 + 2 * k] or ''
for i = 0, k - 1 do
  local a, task = ARGV[7 + 2 * i], ARGV[8 + 2 * i]
  redis.call('ZREM', running(a), task)
  redis.call('ZREM', KEYS[7], task)
  redis.call('HDEL', KEYS[6], task)
  redis.call('HDEL', KEYS[8], task)
  if redis.call('ZSCORE', KEYS[2], a) then place(a) end
  if notices ~= '' then redis.call('PUBLISH', notices, task) end
end
local n = tonumber(ARGV[4])
if ARGV[5] ~= '' then n = n - redis.call('LLEN', ARGV[5]) end
local out = {}
if taker ~= '' then
  for _, item in ipairs(redis.call('LRANGE', inbox(taker), 0, -1)) do
    local a, task, added, request = string.match(item, '^(%S+) (%S+) (%S*) (.*)$')
    out[#out + 1] = a
    out[#out + 1] = task
    out[#out + 1] = request
    out[#out + 1] = added
    n = n - 1
  end
  redis.call('DEL', inbox(taker))
end
local took = takeNext(n)
for _, v in ipairs(took) do out[#out + 1] = v end
if taker ~= '' then register(taker, n - #took / 4, now + tonumber(ARGV[9 + 2 * k])) end
return out`;

/**
 * ARGV 4 account, 5 task → {1} when it was waiting (now taken out), {0}
 * otherwise (not here, or running: its run is cancelled by the deletion).
 */
const REMOVE = `
if redis.call('ZSCORE', KEYS[7], ARGV[5]) then return {0} end
if redis.call('HDEL', KEYS[6], ARGV[5]) == 0 then return {0} end
redis.call('LREM', line(ARGV[4]), 1, ARGV[5])
place(ARGV[4])
return {1}`;

/** ARGV 4 account, 5 stride, 6 cap (0: none). */
const SHARE = `
share(ARGV[4], ARGV[5], ARGV[6])
place(ARGV[4])
return {1}`;

/**
 * ARGV 4 the run queue's wait list, 5 how far to look in the task's own
 * line, 6… task ids → per task the tasks ahead
 * of it, or -1 (not waiting here, or further back than the look); then the
 * tasks taken in the previous and the current pace bucket. A task at
 * index i of its account's line has virtual time vt + i × stride; from each
 * other ready account go first its tasks with an earlier virtual time (and,
 * as the zset breaks ties by name, an equal one when its name sorts first).
 */
const POSITIONS = `
local queued = redis.call('LLEN', ARGV[4])
local look = tonumber(ARGV[5])
local out = {}
for i = 6, #ARGV do
  local task = ARGV[i]
  local meta = redis.call('HGET', KEYS[6], task)
  local ahead = -1
  if meta then
    local a = string.match(meta, '^(%S+)')
    local index = redis.call('LPOS', line(a), task, 'MAXLEN', look)
    if index then
      ahead = queued + index
      local vt = redis.call('ZSCORE', KEYS[1], a)
      if vt then
        local tag = tonumber(vt) + index * tonumber(redis.call('HGET', KEYS[4], a) or '1')
        local others = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', tag, 'WITHSCORES', 'LIMIT', 0, ${POSITION_ACCOUNTS})
        if #others / 2 == ${POSITION_ACCOUNTS} then
          -- Past the accounts looked at, each one further ahead counts for one task (the
          -- count holds the task's own account too).
          ahead = ahead + redis.call('ZCOUNT', KEYS[1], '-inf', tag) - 1 - ${POSITION_ACCOUNTS}
        end
        for j = 1, #others, 2 do
          local b = others[j]
          if b ~= a then
            -- b's tasks at virtual times before the tag, and at the tag itself when b sorts first
            local stride = tonumber(redis.call('HGET', KEYS[4], b) or '1')
            local gap = (tag - tonumber(others[j + 1])) / stride
            local turns = b < a and math.floor(gap) + 1 or math.ceil(gap)
            ahead = ahead + math.min(turns, redis.call('LLEN', line(b)))
          end
        end
      end
    end
  end
  out[#out + 1] = ahead
end
local bucket = math.floor(now / ${PACE_BUCKET_MS})
out[#out + 1] = tonumber(redis.call('GET', base .. 'pace:' .. (bucket - 1)) or '0')
out[#out + 1] = tonumber(redis.call('GET', base .. 'pace:' .. bucket) or '0')
return out`;

/**
 * ARGV 4 an offset (ms), 5… tasks this caller holds, in the order it took
 * them: their leases start again at now + offset (0: renewed; lease − delay:
 * to lapse after the delay, a retry), that order kept. A lease no longer held
 * is left alone → {how many were held}.
 */
const RENEW = `
local renewed = 0
for i = 5, #ARGV do
  if redis.call('ZSCORE', KEYS[7], ARGV[i]) then
    redis.call('ZADD', KEYS[7], now + tonumber(ARGV[4]) + (i - 5) / 4000, ARGV[i])
    renewed = renewed + 1
  end
end
return {renewed}`;

/**
 * ARGV 4 lease (ms), 5 at most, 6 restarts allowed → kind, task, account, …
 * for leases not renewed within the lease (their taker died, or lost Redis
 * for that long): each goes back to the front of its account's line
 * ('restaged'), or, past the restarts allowed, leaves the stage
 * ('abandoned': the stuck-task sweep ends it, with a refund).
 */
const EXPIRED = `
local stale = redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', now - tonumber(ARGV[4]), 'LIMIT', 0, tonumber(ARGV[5]))
local out = {}
-- Latest taken first: each goes back to the front of its line, so the earliest ends up first.
for s = #stale, 1, -1 do
  local task = stale[s]
  local meta = redis.call('HGET', KEYS[6], task)
  redis.call('ZREM', KEYS[7], task)
  if meta then
    local a = string.match(meta, '^(%S+)')
    if redis.call('HINCRBY', KEYS[8], task, 1) > tonumber(ARGV[6]) then
      redis.call('ZREM', running(a), task)
      redis.call('HDEL', KEYS[6], task)
      redis.call('HDEL', KEYS[8], task)
      place(a)
      out[#out + 1] = 'abandoned'
    else
      restage(a, task)
      out[#out + 1] = 'restaged'
    end
    out[#out + 1] = task
    out[#out + 1] = a
  end
end
return out`;

/**
 * ARGV 4… account/task pairs taken and never started (a worker shutting
 * down), in the order taken: back at the front of their lines in that order.
 */
const RELEASE = `
for i = #ARGV - 1, 4, -2 do
  if redis.call('ZSCORE', KEYS[7], ARGV[i + 1]) then restage(ARGV[i], ARGV[i + 1]) end
end
return {1}`;

export const FAIR_STAGE_LUA = {
  genhubFairAdd: PRELUDE + ADD,
  genhubFairTake: PRELUDE + TAKE,
  genhubFairRemove: PRELUDE + REMOVE,
  genhubFairShare: PRELUDE + SHARE,
  genhubFairPositions: PRELUDE + POSITIONS,
  genhubFairRenew: PRELUDE + RENEW,
  genhubFairExpired: PRELUDE + EXPIRED,
  genhubFairRelease: PRELUDE + RELEASE,
};
