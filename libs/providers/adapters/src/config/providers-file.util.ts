import { readFileSync } from 'node:fs';
import { MODEL_INPUT_KINDS } from '@genhub/contracts/server';
import { ChannelName, Channels } from '../contract/model-adapter.types';
import { Checker } from './json-checker.util';
import {
  DEFAULT_MODEL_TIME_LIMIT_MS,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  type FileChatModel,
  type FileModel,
  type ProvidersFile,
  ProvidersFileError,
  UPSTREAM_KINDS,
  type UpstreamSettings,
} from './providers-file.types';

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates `PROVIDERS_FILE`; keys come from the variables the file names. */
export function readProvidersFile(path: string, env: Env): ProvidersFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ProvidersFileError(
      path,
      '',
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseProvidersFile(text, path, env);
}

export function parseProvidersFile(text: string, source: string, env: Env): ProvidersFile {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new ProvidersFileError(source, '', `is not JSON (${(error as Error).message})`);
  }
  const check = new Checker(source);
  const top = check.object(root, '', ['upstreams', 'models', 'chat_models'], ['upstreams']);
  const upstreams = Object.entries(check.object(top.upstreams, 'upstreams')).map(([name, raw]) =>
    parseUpstream(check, name, raw, env),
  );
  const names = new Set(upstreams.map((u) => u.name));
  const models = check
    .array(top.models ?? [], 'models')
    .map((raw, i) => parseModel(check, `models[${i}]`, raw, names));
  const chatModels = check
    .array(top.chat_models ?? [], 'chat_models')
    .map((raw, i) => parseChatModel(check, `chat_models[${i}]`, raw, names));
  unique(
    check,
    models.map((m) => m.slug),
    'models',
    'slug',
  );
  unique(
    check,
    chatModels.map((m) => m.id),
    'chat_models',
    'id',
  );
  return { upstreams, models, chatModels };
}

function parseUpstream(check: Checker, name: string, raw: unknown, env: Env): UpstreamSettings {
  const path = `upstreams.${name}`;
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name))
    check.fail(path, 'name must be 1–40 lowercase letters, digits, - or _');
  const o = check.object(
    raw,
    path,
    ['kind', 'base_url', 'api_key_env', 'timeout_ms'],
    ['kind', 'base_url'],
  );
  const kind = check.oneOf(o.kind, `${path}.kind`, UPSTREAM_KINDS);
  const baseUrl = check.string(o.base_url, `${path}.base_url`);
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl))
    check.fail(`${path}.base_url`, 'must be an http(s) URL');
  let apiKey: string | undefined;
  if (o.api_key_env !== undefined) {
    const variable = check.string(o.api_key_env, `${path}.api_key_env`);
    if (!/^[A-Z_][A-Z0-9_]*$/.test(variable))
      check.fail(`${path}.api_key_env`, 'must name an environment variable (A-Z, 0-9, _)');
    apiKey = env[variable];
    if (!apiKey) check.fail(`${path}.api_key_env`, `names ${variable}, which is not set`);
  }
  const timeoutMs =
    o.timeout_ms === undefined
      ? DEFAULT_UPSTREAM_TIMEOUT_MS
      : check.integer(o.timeout_ms, `${path}.timeout_ms`, 100, 3_600_000);
  return { name, kind, baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, timeoutMs };
}

function parseModel(check: Checker, path: string, raw: unknown, upstreams: Set<string>): FileModel {
  const o = check.object(
    raw,
    path,
    [
      'slug',
      'name',
      'category',
      'description',
      'input',
      'time_limit_ms',
      'default_channel',
      'channels',
    ],
    ['slug', 'name', 'category', 'input', 'channels'],
  );
  const slug = check.string(o.slug, `${path}.slug`);
  if (!/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/.test(slug))
    check.fail(
      `${path}.slug`,
      'must be {provider}/{model}/{run_type} in lowercase letters, digits, . _ -',
    );
  if (slug.startsWith('local/'))
    check.fail(`${path}.slug`, 'provider local is reserved for built-in models');
  const channels = parseChannels(check, `${path}.channels`, o.channels, (r, p) => {
    const route = check.object(
      r,
      p,
      ['upstream', 'model', 'price'],
      ['upstream', 'model', 'price'],
    );
    return {
      upstream: knownUpstream(check, route.upstream, `${p}.upstream`, upstreams),
      model: check.string(route.model, `${p}.model`),
      priceUnits: check.price(route.price, `${p}.price`),
    };
  });
  return {
    slug,
    name: check.string(o.name, `${path}.name`),
    category: check.string(o.category, `${path}.category`),
    description:
      o.description === undefined ? '' : check.string(o.description, `${path}.description`, true),
    input: check.oneOf(o.input, `${path}.input`, MODEL_INPUT_KINDS),
    timeLimitMs:
      o.time_limit_ms === undefined
        ? DEFAULT_MODEL_TIME_LIMIT_MS
        : check.integer(o.time_limit_ms, `${path}.time_limit_ms`, 1000, 3_600_000),
    defaultChannel: defaultChannel(check, path, o.default_channel, channels),
    channels,
  };
}

function parseChatModel(
  check: Checker,
  path: string,
  raw: unknown,
  upstreams: Set<string>,
): FileChatModel {
  const o = check.object(
    raw,
    path,
    ['id', 'name', 'default_channel', 'channels'],
    ['id', 'name', 'channels'],
  );
  const id = check.string(o.id, `${path}.id`);
  if (!/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/.test(id))
    check.fail(`${path}.id`, 'must be {provider}/{model}');
  const keys = ['upstream', 'model', 'input_price_per_1m_tokens', 'output_price_per_1m_tokens'];
  const channels = parseChannels(check, `${path}.channels`, o.channels, (r, p) => {
    const route = check.object(r, p, keys, keys);
    return {
      upstream: knownUpstream(check, route.upstream, `${p}.upstream`, upstreams),
      model: check.string(route.model, `${p}.model`),
      inputPricePer1mTokensUnits: check.price(
        route.input_price_per_1m_tokens,
        `${p}.input_price_per_1m_tokens`,
      ),
      outputPricePer1mTokensUnits: check.price(
        route.output_price_per_1m_tokens,
        `${p}.output_price_per_1m_tokens`,
      ),
    };
  });
  return {
    id,
    name: check.string(o.name, `${path}.name`),
    defaultChannel: defaultChannel(check, path, o.default_channel, channels),
    channels,
  };
}

function parseChannels<R>(
  check: Checker,
  path: string,
  raw: unknown,
  route: (raw: unknown, path: string) => R,
): Partial<Record<ChannelName, R[]>> {
  const o = check.object(raw, path, Channels);
  const channels: Partial<Record<ChannelName, R[]>> = {};
  for (const channel of Channels) {
    if (o[channel] === undefined) continue;
    const routes = check.array(o[channel], `${path}.${channel}`);
    if (!routes.length) check.fail(`${path}.${channel}`, 'needs at least one route');
    channels[channel] = routes.map((r, i) => route(r, `${path}.${channel}[${i}]`));
  }
  if (!Object.keys(channels).length) check.fail(path, 'needs at least one channel');
  return channels;
}

/** Unset: `stable` when it has routes, else the first channel listed. */
function defaultChannel(
  check: Checker,
  path: string,
  raw: unknown,
  channels: Partial<Record<ChannelName, unknown[]>>,
): ChannelName {
  const listed = Channels.filter((c) => channels[c]);
  if (raw === undefined) return channels.stable ? 'stable' : listed[0];
  const channel = check.oneOf(raw, `${path}.default_channel`, Channels);
  if (!channels[channel]) check.fail(`${path}.default_channel`, `${channel} has no routes`);
  return channel;
}

function knownUpstream(check: Checker, raw: unknown, path: string, upstreams: Set<string>): string {
  const name = check.string(raw, path);
  if (!upstreams.has(name)) check.fail(path, `names an unknown upstream "${name}"`);
  return name;
}

function unique(check: Checker, values: string[], path: string, field: string): void {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) check.fail(`${path}[${i}].${field}`, `duplicates "${v}"`);
    seen.add(v);
  });
}
