import { createHash } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { validationFindings } from '@genhub/contracts/server';
import { AppException } from '@genhub/errors';
import { checkOutboundUrl } from '@genhub/outbound';
import { ChannelName, Channels, ModelDefinition } from '@genhub/providers';

// A submit's checks of its request, in the documented order's terms: the body
// against the model's input schema and channels, the webhook URL, the
// Idempotency-Key; and the hash that tells a replay from a different request.

const MAX_WEBHOOK_URL = 2048;
const MAX_IDEMPOTENCY_KEY = 255;

/** The model input and its channel, or 400 naming every bad field. */
export async function checkBody(
  model: ModelDefinition,
  raw: unknown,
): Promise<{ body: Record<string, unknown>; channel: ChannelName }> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AppException('invalid_request', {
      message: 'Invalid request body: expected a JSON object',
    });
  const body = raw as Record<string, unknown>;
  const { channel: requested, ...params } = body;
  const bad: { fields: string[]; text: string[] } = { fields: [], text: [] };
  let channel = model.defaultChannel;
  if (requested !== undefined) {
    if (
      typeof requested !== 'string' ||
      !(Channels as readonly string[]).includes(requested) ||
      !model.channels[requested as ChannelName]
    ) {
      bad.fields.push('channel');
      bad.text.push(
        `channel must be one of the following values: ${Object.keys(model.channels).join(', ')}`,
      );
    } else channel = requested as ChannelName;
  }
  const instance = plainToInstance(model.inputSchema, params) as object;
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  for (const finding of validationFindings(errors)) {
    if (!bad.fields.includes(finding.field)) bad.fields.push(finding.field);
    bad.text.push(
      finding.constraint === 'whitelistValidation'
        ? `${finding.field} is not a known parameter`
        : finding.message,
    );
  }
  if (bad.fields.length)
    throw new AppException('invalid_request', {
      message: `Invalid parameters: ${bad.text.join('; ')}`,
      fields: bad.fields,
    });
  return { body, channel };
}

export function checkWebhook(
  raw: string | undefined,
  allowPrivateNetworks: boolean,
): string | null {
  if (raw === undefined) return null;
  const fail = (why: string): never => {
    throw new AppException('invalid_request', {
      message: `Invalid webhook: ${why}`,
      fields: ['webhook'],
    });
  };
  if (typeof raw !== 'string' || !raw) fail('must be an http(s) URL');
  if (raw.length > MAX_WEBHOOK_URL) fail(`must be at most ${MAX_WEBHOOK_URL} characters`);
  const check = checkOutboundUrl(raw, allowPrivateNetworks);
  if (!check.ok) fail(check.reason);
  return raw;
}

export function checkIdempotencyKey(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // eslint-disable-next-line no-control-regex
  if (!raw || raw.length > MAX_IDEMPOTENCY_KEY || /[\u0000-\u001f\u007f]/.test(raw))
    throw new AppException('invalid_request', {
      message: `Invalid Idempotency-Key: 1 to ${MAX_IDEMPOTENCY_KEY} printable characters`,
    });
  return raw;
}

/** What an Idempotency-Key's earlier request must match: the model, body, webhook and prefix. */
export function requestHashOf(
  slug: string,
  body: Record<string, unknown>,
  webhookUrl: string | null,
  prefix: string | null,
): string {
  return createHash('sha256')
    .update(JSON.stringify([slug, stable(body), webhookUrl, prefix]))
    .digest('hex');
}

/** JSON with sorted keys, so equal bodies hash equally whatever their key order. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  return value;
}
