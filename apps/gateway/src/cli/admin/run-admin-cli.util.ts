import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@genhub/config';
import { AppException } from '@genhub/errors';
import { QueuePrefixTakenError } from '@genhub/queue';
import { adminCommands, findAdminCommand, parseArgs } from './admin-command.util';
import { AdminCliModule } from './admin-cli.module';
import './account.command';
import './recovery.command';

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/**
 * `npm run admin -- <command> …`: prints the result as JSON on stdout (one
 * line with --json), or one `admin: …` line on stderr and a non-zero code.
 */
export async function runAdminCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliOutput,
): Promise<number> {
  const [name = 'help', ...rest] = argv;
  const command = findAdminCommand(name);
  if (!command) {
    io.err(
      `admin: unknown command '${name}'; commands: ${adminCommands()
        .map((c) => c.name)
        .join(', ')}\n`,
    );
    return 2;
  }
  const args = parseArgs(rest);
  if (args.positional.length !== command.arity) {
    io.err(`admin: usage: ${command.usage}\n`);
    return 2;
  }
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  try {
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
      error instanceof QueuePrefixTakenError
        ? error.message
        : `unexpected error: ${(error as Error).message}`;
    io.err(`admin: ${name}: ${message}\n`);
    return 1;
  } finally {
    await app?.close();
  }
}
