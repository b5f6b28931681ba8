// The four built apps as separate processes, `replicas` of each, that can be
// killed and restarted one by one. Replica r of an app listens on its base
// port + 10 × r (gateway 3800, 3810, …).
import { spawn } from 'node:child_process';
import { APPS, entry } from '../start/lib/paths.mjs';

const BASE_PORTS = {
  gateway: 3800,
  'task-worker': 3801,
  'webhook-dispatcher': 3802,
  billing: 3803,
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const portOf = (app, replica = 0) => BASE_PORTS[app] + 10 * replica;

export function appProcesses(env, log, replicas = 1) {
  const procs = new Map();
  // Exits nobody asked for: an app that crashed (e.g. on an unhandled rejection, decision 0101).
  const crashes = [];
  const label = (app, replica) => (replicas > 1 ? `${app} #${replica + 1}` : app);
  const start = async (app, replica = 0) => {
    const port = portOf(app, replica);
    const child = spawn(process.execPath, [entry(app)], {
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    procs.set(`${app}#${replica}`, child);
    child.once('exit', (code, sig) => {
      if (child.expectedExit) return;
      crashes.push(`${label(app, replica)} (${sig ?? code})`);
      log(`${label(app, replica)} exited unexpectedly (${sig ?? code})`);
    });
    child.stderr.on('data', (d) => {
      const line = String(d).trim();
      if (/error|fatal/i.test(line)) log(`${label(app, replica)}: ${line.slice(0, 300)}`);
    });
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return;
      } catch {
        /* starting */
      }
      await sleep(100);
    }
    throw new Error(`${label(app, replica)} did not start`);
  };
  const signal = (app, replica, sig) =>
    new Promise((resolve) => {
      const p = procs.get(`${app}#${replica}`);
      if (!p || p.exitCode !== null || p.signalCode !== null) return resolve();
      p.once('exit', resolve);
      p.expectedExit = true;
      p.kill(sig);
    });
  return {
    start,
    crashes,
    label,
    /** Starts replica `replica` of every app (the gateway first). */
    async startSet(replica) {
      for (const app of APPS) await start(app, replica);
    },
    /** The base URLs of the gateways started so far. */
    gateways: () =>
      [...procs.keys()]
        .filter((key) => key.startsWith('gateway#'))
        .map((key) => `http://127.0.0.1:${portOf('gateway', Number(key.split('#')[1]))}`),
    kill: (app, replica = 0) => signal(app, replica, 'SIGKILL'),
    terminate: (app, replica = 0) => signal(app, replica, 'SIGTERM'),
    async stopAll() {
      await Promise.all(
        [...procs.keys()].map((key) => {
          const [app, replica] = key.split('#');
          return signal(app, Number(replica), 'SIGTERM');
        }),
      );
    },
  };
}
