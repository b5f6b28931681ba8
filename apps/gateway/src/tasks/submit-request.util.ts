import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type RawQuery, SubmitTaskQueryDto } from '@genhub/contracts/server';
import { AppException } from '@genhub/errors';
import type { AuthenticatedAccount } from '@genhub/accounts-feature';
import type { SubmitTaskInput } from '@genhub/task-engine';

/** A query value given at most once: a repeated parameter is refused, naming it. */
export function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AppException('invalid_request', {
      message: `Invalid ${name}: give it once`,
      fields: [name],
    });
  return value;
}

/** `sync` as `/v1` accepts it: true/1/empty or false/0. */
export function parseSync(value: unknown): boolean {
  const raw = single(value, 'sync');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1' || raw === '') return true;
  throw new AppException('invalid_request', {
    message: 'Invalid sync: must be true or false',
    fields: ['sync'],
  });
}

/** A slug segment as the router accepts it. */
const SLUG_SEGMENT = { type: 'string', pattern: '^[A-Za-z0-9._-]+$' } as const;

/**
 * What both submit routes (`/v1` and the v3 form) take besides their body:
 * the slug's three segments, the submit query and the Idempotency-Key header.
 */
export const SubmitRequestDocs = (): MethodDecorator =>
  applyDecorators(
    ApiParam({ name: 'provider_id', schema: SLUG_SEGMENT }),
    ApiParam({ name: 'model_id', schema: SLUG_SEGMENT }),
    ApiParam({ name: 'run_type', schema: SLUG_SEGMENT }),
    ApiQuery({ type: SubmitTaskQueryDto }),
    ApiHeader({
      name: 'idempotency-key',
      required: false,
      description:
        'Repeating a submit with the same key (per account, 24 hours) answers the first task instead of creating and charging a second one.',
    }),
  );

/** The slug of a submit route's path. */
export interface SubmitSlug {
  provider: string;
  model: string;
  runType: string;
}

/**
 * The submit use-case's input from the parts of a submit request: the caller's account with
 * its level and cap (the fair stage's share of it, issue 36), the calling key and its spend
 * limit (issue 37), the slug, body, query and headers.
 */
export function submitInput(
  account: Pick<
    AuthenticatedAccount,
    'id' | 'accountLevel' | 'maxConcurrentTasks' | 'apiKeyId' | 'apiKeyLimits'
  >,
  slug: SubmitSlug,
  body: unknown,
  query: RawQuery<SubmitTaskQueryDto>,
  request: FastifyRequest,
  idempotencyKey: string | undefined,
): SubmitTaskInput {
  return {
    accountId: account.id,
    accountLevel: account.accountLevel,
    maxConcurrentTasks: account.maxConcurrentTasks,
    apiKeyId: account.apiKeyId,
    keySpendLimit: account.apiKeyLimits.spendLimit,
    ...slug,
    body,
    webhook: single(query.webhook, 'webhook'),
    prefix: single(query.prefix, 'prefix'),
    idempotencyKey,
    requestId: request.id,
  };
}
