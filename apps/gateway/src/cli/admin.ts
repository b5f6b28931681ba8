import 'reflect-metadata';
import { runAdminCli } from './admin/run-admin-cli.util';
import { runAuditCommand } from './audit.command';

/** `npm run admin -- <command>` (tools/start/admin.mjs builds the gateway and runs this). */
const [command, ...rest] = process.argv.slice(2);
// `audit` prints its own report and exits 1 when the ledger does not hold.
const run =
  command === 'audit'
    ? runAuditCommand(rest, process.env, (text) => process.stdout.write(text))
    : runAdminCli(process.argv.slice(2), process.env, {
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
run.then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`admin: ${error.message}\n`);
    process.exit(1);
  },
);
