import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { BuiltApp, buildAppForTest } from './built-app.util';
import { closedPort } from './webhook-receiver.fake';

const workspaceRoot = join(__dirname, '../../..');

export interface BuiltPlatform {
  /** `http://127.0.0.1:<port>` of a started app. */
  url(app: string): string;
  /** SIGTERM to every app, then their builds removed. */
  stop(): Promise<void>;
}

/**
 * Some of the four apps as production runs them: each built into a directory
 * of this suite's own, started as a process on a free port with `env` (plus
 * PORT/HOST), and ready once its /health answers.
 */
export async function startBuiltPlatform(
  apps: readonly string[],
  suite: string,
  env: NodeJS.ProcessEnv,
  /** Ports chosen beforehand (e.g. the gateway's, for PUBLIC_BASE_URL); the rest are free ones. */
  fixedPorts: Readonly<Record<string, number>> = {},
): Promise<BuiltPlatform> {
  const builds = new Map<string, BuiltApp>();
  const children: ChildProcess[] = [];
  const ports = new Map<string, number>();
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    for (const build of builds.values()) build.remove();
  };
  try {
    for (const app of apps) builds.set(app, buildAppForTest(app, suite));
    for (const app of apps) {
      ports.set(app, fixedPorts[app] ?? (await closedPort()));
      const child = spawn(process.execPath, [(builds.get(app) as BuiltApp).entry()], {
        cwd: workspaceRoot,
        env: { ...env, PORT: String(ports.get(app)), HOST: '127.0.0.1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      await untilHealthy(`http://127.0.0.1:${ports.get(app)}`, app, child);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: (app) => `http://127.0.0.1:${ports.get(app)}`, stop };
}

async function untilHealthy(url: string, app: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null)
      throw new Error(`${app} exited with ${child.exitCode} while starting`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // Still starting.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${app} did not start`);
}
