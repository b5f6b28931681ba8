import type { INestApplicationContext } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  ApiKeySpend,
  CreateAccountUseCase,
  GetAccountUseCase,
  IssueApiKeyUseCase,
  keyChangeFromDto,
  limitsOfNewKey,
  ListAccountsUseCase,
  ListApiKeysUseCase,
  presentAdminAccount,
  presentAdminAccountPage,
  presentApiKey,
  presentTopUpRecord,
  RevokeApiKeyUseCase,
  RotateWebhookSecretUseCase,
  SetAccountStatusUseCase,
  TopUpAccountUseCase,
  UpdateAccountUseCase,
  UpdateApiKeyUseCase,
} from '@genhub/accounts-feature';
import {
  ACCOUNT_LEVELS,
  API_KEY_SCOPES,
  CreateAccountDto,
  CreateApiKeyDto,
  DEFAULT_ACCOUNT_LEVEL,
  ListAccountsQueryDto,
  ListQueueAccountsQueryDto,
  MAX_CONCURRENT_TASKS_LIMIT,
  SPEND_PERIODS,
  TopUpDto,
  UpdateAccountDto,
  UpdateApiKeyDto,
} from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import { CURRENCIES, DEFAULT_CURRENCY } from '@genhub/money';
import { ListQueueAccountsUseCase } from '@genhub/tasks-feature';
import { amountUnits } from '../../admin/amount-units.util';
import { validationException } from '../../filters/validation.pipe';
import { adminCommands, ParsedArgs, registerAdminCommand } from './admin-command.util';

/** The admin API's validation, for values typed on a command line. */
function validated<T extends object>(type: new () => T, plain: Record<string, unknown>): T {
  const defined = Object.fromEntries(Object.entries(plain).filter(([, v]) => v !== undefined));
  const value = plainToInstance(type, defined);
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) throw validationException(errors);
  return value;
}

function flag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name];
  if (value === true)
    throw new AppException(AppErrorCode.InvalidRequest, { message: `--${name} needs a value` });
  return value;
}

/** A number typed on the command line; anything else stays a string so validation names it. */
function numeric(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

async function createAccount(app: INestApplicationContext, args: ParsedArgs) {
  const body = validated(CreateAccountDto, {
    currency: flag(args, 'currency'),
    account_level: flag(args, 'level'),
    balance: numeric(flag(args, 'balance')),
  });
  const view = await app.get(CreateAccountUseCase).execute({
    currency: body.currency ?? DEFAULT_CURRENCY,
    accountLevel: body.account_level ?? DEFAULT_ACCOUNT_LEVEL,
    initialUnits: amountUnits('balance', body.balance ?? 0),
  });
  return presentAdminAccount(view, { withWebhookSecret: true });
}

/** A flag's value, `none` meaning null (cleared, no limit); absent: undefined. */
function clearable(args: ParsedArgs, name: string): string | null | undefined {
  const value = flag(args, name);
  return value?.trim().toLowerCase() === 'none' ? null : value;
}

/** `a,b,c` → [a, b, c]. */
function list(value: string | null | undefined): string[] | null | undefined {
  return typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
}

/** `5/day` → {amount: 5, period: 'day'}; anything else is left for validation to name. */
function spendLimit(value: string | null | undefined): unknown {
  if (typeof value !== 'string') return value;
  const at = value.lastIndexOf('/');
  if (at < 0) return { amount: numeric(value) };
  return { amount: numeric(value.slice(0, at)), period: value.slice(at + 1).trim() };
}

/** The key settings a create-key or update-key command line gives, as the admin API takes them. */
function keySettings(args: ParsedArgs): Record<string, unknown> {
  return {
    name: clearable(args, 'name'),
    allowed_models: list(clearable(args, 'models')),
    spend_limit: spendLimit(clearable(args, 'spend-limit')),
    expires_at: clearable(args, 'expires-at'),
    scopes: list(clearable(args, 'scopes')),
  };
}

const KEY_FLAGS = `[--name NAME] [--models PATTERN,…] [--spend-limit AMOUNT/${SPEND_PERIODS.join('|')}] [--expires-at ISO8601] [--scopes ${API_KEY_SCOPES.join(',')}]`;

async function createKey(app: INestApplicationContext, args: ParsedArgs) {
  const settings = keyChangeFromDto(validated(CreateApiKeyDto, keySettings(args)));
  const issued = await app.get(IssueApiKeyUseCase).execute({
    accountId: args.positional[0],
    name: settings.name,
    limits: limitsOfNewKey(settings),
  });
  return { ...presentApiKey(issued.stored, 0), key: issued.key };
}

async function updateKey(app: INestApplicationContext, args: ParsedArgs) {
  const change = keyChangeFromDto(validated(UpdateApiKeyDto, keySettings(args)));
  if (!Object.keys(change).length)
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: 'nothing to change: give --name, --models, --spend-limit, --expires-at or --scopes',
    });
  const key = await app.get(UpdateApiKeyUseCase).execute({
    accountId: args.positional[0],
    keyId: args.positional[1],
    change,
  });
  const [spent] = await app.get(ApiKeySpend).spentUnits([key]);
  return presentApiKey(key, spent);
}

registerAdminCommand({
  name: 'create-account',
  usage: `create-account [--currency ${CURRENCIES.join('|')}] [--level ${ACCOUNT_LEVELS.join('|')}] [--balance N]`,
  summary: 'create an account (prints its webhook secret, once)',
  arity: 0,
  run: createAccount,
});

registerAdminCommand({
  name: 'get-account',
  usage: 'get-account <accountId>',
  summary: 'show an account with its balance (net of reservations) and reserved amount',
  arity: 1,
  run: async (app, args) =>
    presentAdminAccount(await app.get(GetAccountUseCase).execute(args.positional[0])),
});

/** `--max-concurrent-tasks N|none`: a number, `none` (no cap: null), else left for validation to name. */
function capFlag(args: ParsedArgs): number | string | null | undefined {
  const value = flag(args, 'max-concurrent-tasks');
  return value?.trim().toLowerCase() === 'none' ? null : numeric(value);
}

registerAdminCommand({
  name: 'update-account',
  usage: `update-account <accountId> [--level ${ACCOUNT_LEVELS.join('|')}] [--max-concurrent-tasks 1-${MAX_CONCURRENT_TASKS_LIMIT}|none]`,
  summary:
    "change an account's level or its cap on tasks running at once (none: no cap, the default); applies at once",
  arity: 1,
  run: async (app, args) => {
    const body = validated(UpdateAccountDto, {
      account_level: flag(args, 'level'),
      max_concurrent_tasks: capFlag(args),
    });
    if (body.account_level === undefined && body.max_concurrent_tasks === undefined)
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: 'nothing to change: give --level or --max-concurrent-tasks',
      });
    return presentAdminAccount(
      await app.get(UpdateAccountUseCase).execute({
        accountId: args.positional[0],
        accountLevel: body.account_level,
        maxConcurrentTasks: body.max_concurrent_tasks,
      }),
    );
  },
});

registerAdminCommand({
  name: 'list-accounts',
  usage: 'list-accounts [--status active|suspended] [--limit 1-100] [--cursor NEXT_CURSOR]',
  summary: 'list accounts, newest first, a page at a time (pass next_cursor back as --cursor)',
  arity: 0,
  run: async (app, args) => {
    const query = validated(ListAccountsQueryDto, {
      status: flag(args, 'status'),
      limit: flag(args, 'limit'),
      cursor: flag(args, 'cursor'),
    });
    return presentAdminAccountPage(await app.get(ListAccountsUseCase).execute(query));
  },
});

registerAdminCommand({
  name: 'list-queue',
  usage: 'list-queue [--limit 1-100] [--cursor NEXT_CURSOR]',
  summary:
    'the accounts with tasks waiting or running, most waiting first, with the totals (pass next_cursor back as --cursor)',
  arity: 0,
  run: async (app, args) => {
    const query = validated(ListQueueAccountsQueryDto, {
      limit: flag(args, 'limit'),
      cursor: flag(args, 'cursor'),
    });
    return app.get(ListQueueAccountsUseCase).execute(query);
  },
});

registerAdminCommand({
  name: 'list-keys',
  usage: 'list-keys <accountId>',
  summary: "list an account's API keys, newest first (never the key or its hash)",
  arity: 1,
  run: async (app, args) => {
    const keys = await app.get(ListApiKeysUseCase).execute(args.positional[0]);
    const spent = await app.get(ApiKeySpend).spentUnits(keys);
    return { data: keys.map((key, i) => presentApiKey(key, spent[i])) };
  },
});

registerAdminCommand({
  name: 'create-key',
  usage: `create-key <accountId> ${KEY_FLAGS}`,
  summary:
    'issue an API key with optional limits: model patterns, a spend limit per UTC day|month|total, an expiry (in the future), scopes (the plain key is printed once and stored only as a hash)',
  arity: 1,
  run: createKey,
});

registerAdminCommand({
  name: 'update-key',
  usage: `update-key <accountId> <keyId> ${KEY_FLAGS}`,
  summary:
    "change a live key's name or limits (none clears one: no limit); every gateway applies it from the next call",
  arity: 2,
  run: updateKey,
});

registerAdminCommand({
  name: 'revoke-key',
  usage: 'revoke-key <keyId>',
  summary: 'revoke an API key; every gateway refuses it within a second',
  arity: 1,
  run: (app, args) => app.get(RevokeApiKeyUseCase).execute(args.positional[0]),
});

registerAdminCommand({
  name: 'top-up',
  usage: 'top-up <accountId> <amount>',
  summary: 'add funds; prints the top-up billing record',
  arity: 2,
  run: async (app, args) => {
    const body = validated(TopUpDto, { amount: numeric(args.positional[1]) });
    const record = await app.get(TopUpAccountUseCase).execute({
      accountId: args.positional[0],
      amountUnits: amountUnits('amount', body.amount),
    });
    return presentTopUpRecord(record);
  },
});

for (const [name, status] of [
  ['suspend', 'suspended'],
  ['unsuspend', 'active'],
] as const)
  registerAdminCommand({
    name,
    usage: `${name} <accountId>`,
    summary:
      status === 'suspended' ? 'suspend an account (its keys answer 403)' : 'reactivate an account',
    arity: 1,
    run: async (app, args) =>
      presentAdminAccount(
        await app.get(SetAccountStatusUseCase).execute({ accountId: args.positional[0], status }),
      ),
  });

registerAdminCommand({
  name: 'webhook-secret:rotate',
  usage: 'webhook-secret:rotate <accountId>',
  summary: 'give an account a new webhook secret (printed once); the old one stops signing',
  arity: 1,
  run: async (app, args) => {
    const rotated = await app.get(RotateWebhookSecretUseCase).execute(args.positional[0]);
    return { id: rotated.id, webhook_secret: rotated.webhookSecret };
  },
});

registerAdminCommand({
  name: 'demo',
  usage: 'demo [--json]',
  summary: 'create a USD account with balance 10 and an API key (used by npm start)',
  arity: 0,
  run: async (app) => {
    const account = await createAccount(app, {
      positional: [],
      flags: { currency: 'USD', balance: '10' },
    });
    const key = await createKey(app, { positional: [account.id], flags: { name: 'demo' } });
    return {
      account_id: account.id,
      key: key.key,
      balance: account.balance,
      currency: account.currency,
    };
  },
});

registerAdminCommand({
  name: 'help',
  usage: 'help',
  summary: 'list the commands as JSON (--help: as text)',
  arity: 0,
  offline: true,
  run: async () => ({
    usage: 'npm run admin -- <command> [arguments]',
    commands: adminCommands().map((c) => ({ command: c.usage, does: c.summary })),
  }),
});
