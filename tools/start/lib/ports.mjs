// Which port each app listens on under `npm start`, and whether it is free.
import net from 'node:net';

/**
 * `PORT` is the gateway's; each other app has its own variable, defaulting to
 * the next ports after the gateway's. In a container each app reads plain
 * `PORT`: these names only matter when one launcher starts all four.
 */
export const PORT_VARIABLES = {
  gateway: 'PORT',
  'task-worker': 'TASK_WORKER_PORT',
  'webhook-dispatcher': 'WEBHOOK_DISPATCHER_PORT',
  billing: 'BILLING_PORT',
};
const DEFAULT_GATEWAY_PORT = 3000;

function parsePort(variable, value) {
  const port = Number(value);
  if (!/^\d+$/.test(String(value)) || port < 1 || port > 65535)
    throw new Error(`${variable} must be an integer from 1 to 65535 (got "${value}")`);
  return port;
}

/** { app: port } for every app; throws one line naming a bad variable or a clash. */
export function resolvePorts(env) {
  const gateway = env.PORT === undefined ? DEFAULT_GATEWAY_PORT : parsePort('PORT', env.PORT);
  const ports = {};
  Object.entries(PORT_VARIABLES).forEach(([app, variable], offset) => {
    const own = env[variable];
    ports[app] =
      app === 'gateway' ? gateway : own === undefined ? gateway + offset : parsePort(variable, own);
    if (ports[app] > 65535)
      throw new Error(
        `${variable} would be ${ports[app]} (PORT + ${offset}): set it, or a lower PORT`,
      );
  });
  const seen = new Map();
  for (const [app, port] of Object.entries(ports)) {
    if (seen.has(port))
      throw new Error(`${seen.get(port)} and ${app} would both listen on port ${port}`);
    seen.set(port, app);
  }
  return ports;
}

/** Resolves true when `port` can be bound on `host` right now. */
function canListen(host, port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The first { app, port } that cannot be bound on `host`, or undefined when all are free. */
export async function firstBusyPort(host, ports) {
  for (const [app, port] of Object.entries(ports))
    if (!(await canListen(host, port))) return { app, port };
  return undefined;
}
