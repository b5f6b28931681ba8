import type { INestApplicationContext } from '@nestjs/common';

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | true>;
}

/** One `npm run admin -- <name> …` command. It returns what is printed as JSON. */
export interface AdminCommand {
  name: string;
  usage: string;
  summary: string;
  /** How many positional arguments it requires. */
  arity: number;
  /** Commands like `help` need no database. */
  offline?: boolean;
  run(app: INestApplicationContext, args: ParsedArgs): Promise<unknown>;
}

const COMMANDS = new Map<string, AdminCommand>();

/** Adds a command (billing registers `audit` this way, from its own file imported by admin.ts). */
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
