// The faults of a fault-injection run, in order, each as [name, run]: five of
// them, one every sixth of the load. With one replica of each app the classic
// set; with several, kills and restarts land on different replicas, and two
// apps die at once, so the survivors carry the load meanwhile.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function faultsFor(apps, redis, postgres, replicas) {
  const { label } = apps;
  /** SIGKILL these [app, replica] pairs together, then restart them. */
  const crash = (...targets) => [
    `SIGKILL ${targets.map(([app, r]) => label(app, r)).join(' and ')}`,
    async () => {
      await Promise.all(targets.map(([app, r]) => apps.kill(app, r)));
      await sleep(500);
      for (const [app, r] of targets) await apps.start(app, r);
    },
  ];
  const restartRedis = ['restart Redis', () => redis.restart()];
  const restartPostgres = ['restart PostgreSQL', () => postgres.restart()];
  const last = replicas - 1;
  const drainGateway = [
    `SIGTERM ${label('gateway', last)}`,
    async () => {
      await apps.terminate('gateway', last);
      await apps.start('gateway', last);
    },
  ];
  if (replicas === 1)
    return [
      crash(['task-worker', 0]),
      crash(['webhook-dispatcher', 0]),
      restartRedis,
      restartPostgres,
      drainGateway,
    ];
  return [
    crash(['task-worker', last]),
    crash(['webhook-dispatcher', 0], ['billing', last]),
    restartRedis,
    crash(['task-worker', 0], ['webhook-dispatcher', last], ['billing', 0]),
    [
      `${restartPostgres[0]}, then ${drainGateway[0]}`,
      async () => {
        await restartPostgres[1]();
        await drainGateway[1]();
      },
    ],
  ];
}
