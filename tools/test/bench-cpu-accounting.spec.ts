import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

// The bench counts PostgreSQL's CPU by command name, and backends come and go
// within a measurement window (pool connections idle out, parallel workers).
// Checked with real processes: a root (as the postmaster) starts children that
// burn a measured amount of CPU and exit, between two snapshots.
const PROC = path.resolve(__dirname, '../bench/lib/proc.mjs');

/** Burns `ms` of this process's own CPU time (not wall time: the machine may be busy). */
const BURN = `const burn = (ms) => { const s = process.cpuUsage(); for (;;) { const u = process.cpuUsage(s); if ((u.user + u.system) / 1000 >= ms) return; } };`;

/**
 * The harness, as one ES module run by a child Node: a root titled `title`
 * starts a child (the same title) on `start <before> <after>`, which burns
 * <before> ms, says so, waits for `go`, burns <after> ms and exits; the
 * root answers `exited` once it has reaped it. `steps` run in order:
 * `snap` takes a snapshot; the result is the group's delta between the two.
 */
function measure(steps: string[]): number {
  const title = `acct${randomBytes(3).toString('hex')}`;
  const child = `${BURN} process.title = ${JSON.stringify(title)}; burn(Number(process.argv[1])); process.stdout.write('ready\\n'); process.stdin.once('data', () => { burn(Number(process.argv[2])); process.exit(0); });`;
  const root = `process.title = ${JSON.stringify(title)};
    const { spawn } = require('node:child_process');
    let current;
    require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
      const [command, before, after] = line.split(' ');
      if (command === 'start') {
        current = spawn(process.execPath, ['-e', ${JSON.stringify(child)}, before, after], { stdio: ['pipe', 'pipe', 'inherit'] });
        current.stdout.once('data', () => process.stdout.write('ready\\n'));
        current.once('exit', () => process.stdout.write('exited\\n'));
      } else if (command === 'go') current.stdin.write('go\\n');
      else process.exit(0);
    });`;
  const harness = `
    import { spawn } from 'node:child_process';
    import { createInterface } from 'node:readline';
    import { cpuDelta, cpuSnapshot } from ${JSON.stringify(PROC)};
    const root = spawn(process.execPath, ['-e', ${JSON.stringify(root)}], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: root.stdout })[Symbol.asyncIterator]();
    const answer = async () => (await lines.next()).value;
    const group = { g: 'comm:${title}' };
    const snaps = [];
    for (const step of ${JSON.stringify(steps)}) {
      if (step === 'snap') { snaps.push(cpuSnapshot(group)); continue; }
      root.stdin.write(step + '\\n');
      await answer();
    }
    root.stdin.write('quit\\n');
    console.log(JSON.stringify(cpuDelta(snaps[0], snaps[1]).g));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', harness], {
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );
}

describe('bench CPU accounting by command name', () => {
  it('counts a process that exits between two snapshots for its time after the first only', () => {
    // 400 ms before the first snapshot, 300 after: counting its whole life would
    // give about 0.7 s (and dropping it, as a sum over the living does, about −0.4 s).
    const seconds = measure(['start 400 300', 'snap', 'go', 'snap']);
    expect(seconds).toBeGreaterThanOrEqual(0.28);
    expect(seconds).toBeLessThan(0.55);
  });

  it('counts a process started and gone between two snapshots', () => {
    const seconds = measure(['snap', 'start 300 0', 'go', 'snap']);
    expect(seconds).toBeGreaterThanOrEqual(0.28);
    // Its Node start-up is counted too: it is CPU spent in the window.
    expect(seconds).toBeLessThan(0.9);
  });
});
