import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
/** The gateway's TypeScript run by plain Node, as the admin wrapper does for --help. */
const fromSources = (file: string) => ['-r', './tools/build/register-ts.cjs', file];

/**
 * Every command-line tool, as the npm scripts and the docs run it. Each must
 * answer --help (usage on stdout, exit 0) and refuse an unknown option (one
 * line on stderr, exit 2), before it builds, installs or starts anything.
 */
const TOOLS: [string, string[]][] = [
  ['npm start', ['tools/start/start.mjs']],
  ['npm run bench', ['tools/bench/bench.mjs']],
  ['npm run fault-injection', ['tools/fault/fault-injection.mjs']],
  ['npm run db:migrate', ['tools/start/migrate.mjs']],
  ['npm run admin', ['tools/start/admin.mjs']],
  ['npm run contracts:generate', ['tools/contracts/generate.cjs']],
  ['the gateway migrate CLI', fromSources('apps/gateway/src/cli/migrate.ts')],
  ['the gateway admin CLI', fromSources('apps/gateway/src/cli/admin.ts')],
  ['seed-billing', ['tools/seed-billing/seed-billing.cjs']],
  ['seed-ledger', ['tools/seed-billing/seed-ledger.cjs']],
  ['seed-tasks', ['tools/seed-tasks/seed-tasks.cjs']],
  ['lint-openapi', ['tools/contracts/lint-openapi.cjs']],
  ['bundle-browser', ['tools/contracts/bundle-browser.cjs']],
  ['build-lib', ['tools/contracts/build-lib.cjs']],
  ['build-console', ['tools/console/build-console.mjs']],
  ['check-lockfile', ['tools/check-lockfile.mjs']],
  ['check-boundaries', ['tools/check-boundaries.mjs']],
  ['new-lib', ['tools/generators/new-lib.mjs']],
];

function run(argv: string[]) {
  const result = spawnSync(process.execPath, argv, {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.each(TOOLS)('%s', (_name, command) => {
  it('prints its usage for --help and exits 0', () => {
    const result = run([...command, '--help']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(/^usage: /);
  }, 60_000);

  it('refuses an unknown option with one line and exit 2', () => {
    const result = run([...command, '--no-such-option']);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^[^\n]*'--no-such-option'[^\n]*\(see --help\)\n$/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});

describe('npm run bench --only', () => {
  it('refuses a scenario it does not know with one line and exit 2, before it builds or starts anything', () => {
    const result = run(['tools/bench/bench.mjs', '--only=no-such-scenario']);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toBe(
      'bench: --only takes noisy-neighbour, rates, deep-backlog, soak (got "no-such-scenario") (see --help)\n',
    );
  }, 60_000);

  it('refuses --only=noisy-neighbour with the scenario left out (--noisy-runs=0)', () => {
    const result = run(['tools/bench/bench.mjs', '--only=noisy-neighbour', '--noisy-runs=0']);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^bench: --only=noisy-neighbour needs --noisy-runs ≥ 1/);
  }, 60_000);

  it.each(['rates', 'deep-backlog', 'soak'])(
    'refuses --only=%s without a floor saturation to take its rate from (--skip-floor, no --floor-rps)',
    (scenario) => {
      const result = run(['tools/bench/bench.mjs', `--only=${scenario}`, '--skip-floor']);
      expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
      expect(result.stderr).toBe(
        `bench: --only=${scenario} runs at a share of the floor's saturation: give --floor-rps (see --help)\n`,
      );
    },
    60_000,
  );

  it('refuses --only=soak with no minutes to soak', () => {
    const result = run(['tools/bench/bench.mjs', '--only=soak', '--soak-minutes=0']);
    expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
    expect(result.stderr).toMatch(/^bench: --soak-minutes must be a whole number ≥ 1/);
  }, 60_000);
});
