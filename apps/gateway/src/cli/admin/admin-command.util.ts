import type { INestApplicationContext } from '@nestjs/common';

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | true>;
}

interface AdminCommandBase {
  name: string;
  /** `name <positional> [--flag …]`: the flags it names are the only ones the command takes (and --json). */
  usage: string;
  summary: string;
  /** How many positional arguments it requires. */
  arity: number;
}

/** One `npm run admin -- <name> …` command. It returns what is printed as JSON. */
export interface AdminJsonCommand extends AdminCommandBase {
  /** Commands like `help` need no database. */
  offline?: boolean;
  run(app: INestApplicationContext, args: ParsedArgs): Promise<unknown>;
}

/** A command that prints its own report and chooses its exit code (the ledger audit); no Nest application. */
export interface AdminReportCommand extends AdminCommandBase {
  report(args: ParsedArgs, env: NodeJS.ProcessEnv, out: (text: string) => void): Promise<number>;
}

export type AdminCommand = AdminJsonCommand | AdminReportCommand;

const COMMANDS = new Map<string, AdminCommand>();

/** Adds a command (the ledger audit registers `audit` this way, from its own file). */
export function registerAdminCommand(command: AdminCommand): void {
  if (COMMANDS.has(command.name)) throw new Error(`admin command ${command.name} registered twice`);
  COMMANDS.set(command.name, command);
}

export function findAdminCommand(name: string): AdminCommand | undefined {
  return COMMANDS.get(name);
}

export function adminCommands(): AdminCommand[] {
  return [...COMMANDS.values()];
}

/** `a b --x 1 --y=2 --z` → positional [a, b], flags {x: '1', y: '2', z: true}. */
export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) flags[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[name] = argv[++i];
    else flags[name] = true;
  }
  return { positional, flags };
}

/** The flags a command takes: those its usage names, and --json (every command's output on one line). */
export function adminCommandFlags(command: AdminCommand): string[] {
  return ['json', ...[...command.usage.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1])];
}

/** `npm run admin -- --help`: every command with what it does. */
export function adminHelp(): string {
  const commands = adminCommands()
    .map((c) => `  ${c.usage}\n      ${c.summary}\n`)
    .join('');
  return `usage: npm run admin -- <command> [arguments] [--json]
       (in an image: node dist/gateway/apps/gateway/src/cli/admin.js <command> …)

The admin API from a terminal, on DATABASE_URL and REDIS_URL (npm run admin
starts the embedded PostgreSQL and a Redis when they are unset). A command prints
its result as JSON (on one line with --json); exit 1 when it fails, 2 on bad usage.

commands:
${commands}
<command> --help prints one command's usage; -h, --help prints this help.
`;
}

/** `npm run admin -- <command> --help`. */
export function adminCommandHelp(command: AdminCommand): string {
  const output =
    'report' in command
      ? 'Prints its own report.'
      : 'Prints its result as JSON (on one line with --json).';
  return `usage: npm run admin -- ${command.usage}\n\n${command.summary}.\n${output}\n`;
}
