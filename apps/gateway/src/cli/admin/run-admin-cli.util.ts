import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@genhub/config';
import { PostgresTlsError } from '@genhub/database';
import { AppException } from '@genhub/errors';
import { QueuePrefixTakenError } from '@genhub/queue';
import {
  adminCommandFlags,
  adminCommandHelp,
  adminCommands,
  adminHelp,
  findAdminCommand,
  parseArgs,
} from './admin-command.util';
import { AdminCliModule } from './admin-cli.module';
import './account.command';
import './recovery.command';
import '../audit.command';

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/**
 * `npm run admin -- <command> …`: prints the result as JSON on stdout (one
 * line with --json), or one `admin: …` line on stderr and a non-zero code:
 * 1 when the command fails, 2 on bad usage (an unknown command or flag, a
 * missing argument). `--help` (alone or after a command) prints the usage and
 * exits 0; none of these touch a database.
 */
export async function runAdminCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput,
  /** Check the usage only: 0 when the command would run (tools/start/admin.mjs, before it starts a database). */
  { usageOnly = false }: { usageOnly?: boolean } = {},
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || isHelp(name)) {
    io.out(adminHelp());
    return 0;
  }
  if (name.startsWith('-')) {
    io.err(`admin: unknown option '${name}' (see --help)\n`);
    return 2;
  }
  const command = findAdminCommand(name);
  if (!command) {
    io.err(
      `admin: unknown command '${name}'; commands: ${adminCommands()
        .map((c) => c.name)
        .join(', ')} (see --help)\n`,
    );
    return 2;
  }
  const args = parseArgs(rest);
  if (args.flags.help === true || args.positional.some(isHelp)) {
    io.out(adminCommandHelp(command));
    return 0;
  }
  const known = adminCommandFlags(command);
  const unknown = Object.keys(args.flags).find((flag) => !known.includes(flag));
  if (unknown !== undefined) {
    io.err(`admin: ${name}: unknown option '--${unknown}'; usage: ${command.usage}\n`);
    return 2;
  }
  if (args.positional.length !== command.arity) {
    io.err(`admin: usage: ${command.usage}\n`);
    return 2;
  }
  if (usageOnly) return 0;
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  try {
    if ('report' in command) return await command.report(args, env, io.out);
    if (!command.offline)
      app = await NestFactory.createApplicationContext(AdminCliModule.forRoot(env), {
        logger: false,
        abortOnError: false,
      });
    const result = await command.run(app as never, args);
    io.out(
      args.flags.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    const message =
      error instanceof AppException ||
      error instanceof ConfigError ||
      error instanceof QueuePrefixTakenError ||
      error instanceof PostgresTlsError
        ? error.message
        : `unexpected error: ${(error as Error).message}`;
    io.err(`admin: ${name}: ${message}\n`);
    return 1;
  } finally {
    await app?.close();
  }
}
