// Waits until every started app answers its readiness probe.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The address to probe an app bound on `host` at. */
export function probeHost(host) {
  return !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

async function ready(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).status === 200;
  } catch {
    return false;
  }
}

/**
 * Resolves when `GET /ready` answered 200 on every app's port; rejects naming
 * the apps still not ready after `timeoutMs`, or as soon as `stopped()` says
 * the launch was abandoned.
 */
export async function waitUntilReady(
  host,
  ports,
  { timeoutMs = 60_000, stopped = () => false } = {},
) {
  const pending = new Map(Object.entries(ports));
  const deadline = Date.now() + timeoutMs;
  while (pending.size) {
    if (stopped()) throw new Error('start-up abandoned');
    for (const [app, port] of [...pending])
      if (await ready(`http://${probeHost(host)}:${port}/ready`)) pending.delete(app);
    if (!pending.size) return;
    if (Date.now() > deadline)
      throw new Error(
        `not ready after ${timeoutMs / 1000} s: ${[...pending.keys()].join(', ')} (GET /ready)`,
      );
    await sleep(250);
  }
}
