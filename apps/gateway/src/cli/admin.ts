import 'reflect-metadata';
import { runAdminCli } from './admin/run-admin-cli.util';

/**
 * `npm run admin -- <command>` (tools/start/admin.mjs builds the gateway and runs this; --help
 * lists the commands). With ADMIN_CLI_USAGE_ONLY=true it only checks the command line: exit 0
 * when the command would run, else its one line and exit 2 (the wrapper, before it starts a database).
 */
runAdminCli(
  process.argv.slice(2),
  process.env,
  {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  },
  { usageOnly: process.env.ADMIN_CLI_USAGE_ONLY === 'true' },
).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`admin: ${error.message}\n`);
    process.exit(1);
  },
);
