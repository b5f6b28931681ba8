import 'reflect-metadata';
import { runAdminCli } from './admin/run-admin-cli';

/** `npm run admin -- <command>` (tools/start/admin.mjs builds the gateway and runs this). */
runAdminCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`admin: ${error.message}\n`);
    process.exit(1);
  },
);
