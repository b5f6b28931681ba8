import { Body, Controller, Get, Module, Post, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsInt, IsString, Min } from 'class-validator';
import { ApiKeyGuard, AuthenticatedAccount, CurrentAccount } from '@genhub/accounts-feature';
import {
  AppErrorCode,
  AppException,
  insufficientBalanceMessage,
  unknownProviderMessage,
} from '@genhub/errors';
import { serviceFastifyOptions } from '@genhub/observability';
import { AppModule } from '../app.module';
import { configureGateway, gatewayFastifyOptions } from '../gateway-setup.util';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

class EchoDto {
  @IsString() prompt!: string;
  @IsInt() @Min(1) count!: number;
}

/** Test-only routes that raise each kind of failure, one per response family. */
@Controller()
class FailuresController {
  @Get('v1/test/unknown-provider')
  unknownProvider(): never {
    throw new AppException(AppErrorCode.UnknownProvider, {
      message: unknownProviderMessage('nope'),
    });
  }

  @Get('v1/test/insufficient')
  insufficient(): never {
    throw new AppException(AppErrorCode.InsufficientBalance, {
      message: insufficientBalanceMessage('$', '0.000', '0.001'),
    });
  }

  @Get(['v1/test/boom', 'api/v3/test/boom', 'v1/chat/test-boom'])
  boom(): never {
    throw new Error('secret internals: password=hunter2');
  }

  @Post(['v1/test/echo', 'api/v3/test/echo'])
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }

  @Get(['v1/test/whoami', 'v1/chat/test-whoami', 'api/v3/test/whoami'])
  @UseGuards(ApiKeyGuard)
  whoami(@CurrentAccount() account: AuthenticatedAccount): AuthenticatedAccount {
    return account;
  }

  @Post('v1/chat/test-invalid')
  @UseGuards(ApiKeyGuard)
  chatInvalid(): never {
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: 'model is required',
      param: 'model',
    });
  }
}

export interface RunningGateway {
  url: string;
  app: NestFastifyApplication;
  close(): Promise<void>;
}

export interface CreateGatewayOptions {
  /** Add the test-only failure routes (default true). */
  testRoutes?: boolean;
  /** Runs after the app is created and before it is initialised (routes registered). */
  beforeInit?: (app: NestFastifyApplication) => void | Promise<void>;
}

/** The gateway as main.ts builds it (same module, Fastify options and set-up), not listening. */
export async function createGateway(
  overrides: NodeJS.ProcessEnv = {},
  options: CreateGatewayOptions = {},
): Promise<NestFastifyApplication> {
  const env: NodeJS.ProcessEnv = {
    // eslint-disable-next-line no-restricted-syntax -- tests read the per-run DATABASE_URL/QUEUE_PREFIX
    ...process.env,
    PORT: '3000',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    API_KEY_PEPPER: 'test-pepper-0123456789',
    ...overrides,
  };
  for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete env[key];

  @Module({ imports: [AppModule.forRoot(env)], controllers: [FailuresController] })
  class TestGatewayModule {}

  const adapter = new FastifyAdapter({
    ...gatewayFastifyOptions(env),
    ...serviceFastifyOptions(env),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    options.testRoutes === false ? AppModule.forRoot(env) : TestGatewayModule,
    adapter,
    { logger: false, abortOnError: false },
  );
  await options.beforeInit?.(app);
  await configureGateway(app);
  return app;
}

/** The gateway with the test routes, listening on 127.0.0.1. */
export async function startGateway(overrides: NodeJS.ProcessEnv = {}): Promise<RunningGateway> {
  const app = await createGateway(overrides);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, app, close: () => app.close() };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export const admin = (token = TEST_ADMIN_TOKEN) => ({ authorization: `Bearer ${token}` });

/** An account as the admin API answers it; the webhook secret only at creation. */
export interface AdminAccount {
  id: string;
  currency: string;
  account_level: string;
  balance: number;
  reserved: number;
  status: string;
  /** The operator's cap on tasks running at once; null: none. */
  max_concurrent_tasks: number | null;
  webhook_secret?: string;
}

/** A new account through the admin API (`body` as the caller sends it); fails unless 201. */
export async function createAdminAccount(url: string, body: unknown = {}): Promise<AdminAccount> {
  const response = await call(`${url}/admin/v1/accounts`, {
    method: 'POST',
    headers: admin(),
    body,
  });
  if (response.status !== 201)
    throw new Error(`account not created: ${response.status} ${response.text}`);
  return response.body as AdminAccount;
}

/** A new account with `balance` (in its currency) and one API key, through the admin API. */
export async function createAccountWithKey(
  url: string,
  balance = 1,
): Promise<{ accountId: string; key: string }> {
  const { id: accountId } = await createAdminAccount(url, { balance });
  const issued = await call(`${url}/admin/v1/accounts/${accountId}/api-keys`, {
    method: 'POST',
    headers: admin(),
  });
  return { accountId, key: (issued.body as { key: string }).key };
}
