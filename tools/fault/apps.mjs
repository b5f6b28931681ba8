// The four built apps as separate processes that can be killed and restarted one by one.
import { spawn } from 'node:child_process';
import { entry } from '../start/lib/paths.mjs';

export const PORTS = {
  gateway: 3800,
  'task-worker': 3801,
  'webhook-dispatcher': 3802,
  billing: 3803,
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function appProcesses(env, log) {
  const procs = {};
  // Exits nobody asked for: an app that crashed (e.g. on an unhandled rejection, decision 0101).
  const crashes = [];
  const start = async (app) => {
    const child = spawn(process.execPath, [entry(app)], {
      env: { ...env, PORT: String(PORTS[app]) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    procs[app] = child;
    child.once('exit', (code, sig) => {
      if (child.expectedExit) return;
      crashes.push(`${app} (${sig ?? code})`);
      log(`${app} exited unexpectedly (${sig ?? code})`);
    });
    procs[app].stderr.on('data', (d) => {
      const line = String(d).trim();
      if (/error|fatal/i.test(line)) log(`${app}: ${line.slice(0, 300)}`);
    });
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORTS[app]}/health`)).ok) return;
      } catch {
        /* starting */
      }
      await sleep(100);
    }
    throw new Error(`${app} did not start`);
  };
  const signal = (app, sig) =>
    new Promise((resolve) => {
      const p = procs[app];
      if (!p || p.exitCode !== null || p.signalCode !== null) return resolve();
      p.once('exit', resolve);
      p.expectedExit = true;
      p.kill(sig);
    });
  return {
    start,
    crashes,
    async startAll() {
      for (const app of Object.keys(PORTS)) await start(app);
    },
    kill: (app) => signal(app, 'SIGKILL'),
    terminate: (app) => signal(app, 'SIGTERM'),
    async stopAll() {
      await Promise.all(Object.keys(procs).map((app) => signal(app, 'SIGTERM')));
    },
  };
}
