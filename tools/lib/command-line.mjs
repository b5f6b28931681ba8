// The command line of every tool under tools/: `--help` prints the tool's usage
// and exits 0; an unknown option or a malformed value prints one line and exits 2.
import { parseArgs } from 'node:util';

/**
 * Parses `argv` (default: this process's arguments) with node:util's parseArgs.
 * `usage` is the whole help text (first line `usage: …`). Returns { values, positionals }.
 */
export function parseCommandLine({
  name,
  usage,
  options = {},
  allowPositionals = false,
  argv = process.argv.slice(2),
}) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
    });
  } catch (error) {
    usageError(name, error.message.split('. ')[0]);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  return parsed;
}

/** One line naming the tool and the problem, then exit 2 (bad usage). */
export function usageError(name, message) {
  process.stderr.write(`${name}: ${message} (see --help)\n`);
  process.exit(2);
}
