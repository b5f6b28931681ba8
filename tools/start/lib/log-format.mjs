// How `npm start` shows the apps' logs: the apps always write JSON lines; in a
// terminal the launcher shows them readable (pino-pretty), unless LOG_FORMAT=json.
import pretty from 'pino-pretty';

/** Whether to show readable lines: LOG_FORMAT=pretty, or unset with stdout a terminal. */
export function wantsPrettyLogs(env, stdout = process.stdout) {
  const format = env.LOG_FORMAT ?? (stdout.isTTY ? 'pretty' : 'json');
  if (format !== 'pretty' && format !== 'json')
    throw new Error(`LOG_FORMAT must be pretty or json (got "${format}")`);
  return format === 'pretty';
}

/** A stream taking one app's JSON log lines and writing them readable to stdout. */
export function prettyLogs() {
  return pretty({
    colorize: process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,req,res,responseTime',
    messageFormat: line,
    messageKey: 'msg',
    singleLine: true,
    // Lines that are not JSON (a stack printed by Node itself) pass through as they are.
    sync: true,
  });
}

/** `gateway GET /v1/balance 200 1.2 ms`, for request lines; `gateway <msg>` for the others. */
function line(log, messageKey) {
  const { service = '', req, res, responseTime } = log;
  if (req && res) return `${service} ${req.method} ${req.url} ${res.statusCode} ${responseTime} ms`;
  return `${service} ${log[messageKey] ?? ''}`;
}
