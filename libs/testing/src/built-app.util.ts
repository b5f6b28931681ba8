import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const workspaceRoot = join(__dirname, '../../..');

export interface BuiltApp {
  /** Absolute path of a built entry point, e.g. `main` or `cli/admin`. */
  entry(file?: string): string;
  remove(): void;
}

/**
 * Builds an app as production runs it, into a directory of this suite's own
 * under dist/ (inside the workspace, so node_modules resolve). Suites run in
 * parallel: a shared dist/<app> would be wiped by one suite's build while
 * another suite's process is still loading files from it.
 */
export function buildAppForTest(app: string, suite: string): BuiltApp {
  const outDir = join(workspaceRoot, 'dist', `test-${suite}-${app}-${process.pid}`);
  execFileSync(process.execPath, ['tools/build/build-app.cjs', app, outDir], {
    cwd: workspaceRoot,
    stdio: 'ignore',
  });
  return {
    entry: (file = 'main') => join(outDir, 'apps', app, 'src', `${file}.js`),
    remove: () => rmSync(outDir, { recursive: true, force: true }),
  };
}
