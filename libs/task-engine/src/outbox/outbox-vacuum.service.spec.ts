import type { DataSource } from 'typeorm';
import type { OutboxRepository } from '@genhub/tasks-data-access';
import { OUTBOX_VACUUM_ROWS, OutboxVacuum } from './outbox-vacuum.service';

/** An OutboxVacuum whose repository records each vacuum and holds it open until released. */
function vacuumWith(fails = false) {
  const started: (() => void)[] = [];
  const outbox = {
    vacuum: () =>
      new Promise<void>((resolve, reject) =>
        started.push(() => (fails ? reject(new Error('must be owner')) : resolve())),
      ),
  } as unknown as OutboxRepository;
  const vacuum = new OutboxVacuum({ manager: {} } as unknown as DataSource, outbox);
  vacuum.every = 100;
  return { vacuum, started };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('OutboxVacuum', () => {
  it('vacuums ten thousand deleted rows apart by default', () => {
    expect(OUTBOX_VACUUM_ROWS).toBe(10_000);
  });

  it('vacuums once the rows deleted since the last vacuum reach `every`, counting afresh', async () => {
    const { vacuum, started } = vacuumWith();
    vacuum.deleted(60);
    expect(started).toHaveLength(0);
    vacuum.deleted(40);
    expect(started).toHaveLength(1);
    started[0]();
    await settle();
    vacuum.deleted(99);
    expect(started).toHaveLength(1);
    vacuum.deleted(1);
    expect(started).toHaveLength(2);
  });

  it('runs one vacuum at a time: rows deleted meanwhile count towards the next', async () => {
    const { vacuum, started } = vacuumWith();
    vacuum.deleted(100);
    vacuum.deleted(150); // while the first runs
    expect(started).toHaveLength(1);
    started[0]();
    await settle();
    vacuum.deleted(0);
    expect(started).toHaveLength(2);
  });

  it('a failed vacuum is logged, not thrown, and the next interval tries again', async () => {
    const { vacuum, started } = vacuumWith(true);
    vacuum.deleted(100);
    started[0]();
    await settle();
    vacuum.deleted(100);
    expect(started).toHaveLength(2);
  });

  it('shutdown waits for the vacuum under way and starts none after', async () => {
    const { vacuum, started } = vacuumWith();
    vacuum.deleted(100);
    let closed = false;
    const shutdown = vacuum.onApplicationShutdown().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    started[0]();
    await shutdown;
    vacuum.deleted(1000);
    expect(started).toHaveLength(1);
  });
});
