import type { ModelInputKind } from '@genhub/contracts/server';
import type { ChannelName } from '../contract/model-adapter.types';

// The providers file (PROVIDERS_FILE) once read and validated, and its refusal.

export const UPSTREAM_KINDS = ['openai', 'replicate', 'fal'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

/** An upstream provider account: where to call it and with which key. */
export interface UpstreamSettings {
  name: string;
  kind: UpstreamKind;
  baseUrl: string;
  /** Read from the variable `api_key_env` names; undefined when the file names none. */
  apiKey?: string;
  /** Limit of one HTTP request to the upstream (a poll, a submit, a synchronous generation). */
  timeoutMs: number;
}

export interface FileRoute {
  upstream: string;
  model: string;
  priceUnits: number;
}

export interface FileModel {
  slug: string;
  name: string;
  category: string;
  description: string;
  input: ModelInputKind;
  timeLimitMs: number;
  defaultChannel: ChannelName;
  channels: Partial<Record<ChannelName, FileRoute[]>>;
}

export interface FileChatRoute {
  upstream: string;
  model: string;
  inputPricePer1mTokensUnits: number;
  outputPricePer1mTokensUnits: number;
}

/** A chat model of the file; `chatModelsFromFile` turns it into the chat catalogue's form. */
export interface FileChatModel {
  id: string;
  name: string;
  defaultChannel: ChannelName;
  channels: Partial<Record<ChannelName, FileChatRoute[]>>;
}

export interface ProvidersFile {
  upstreams: UpstreamSettings[];
  models: FileModel[];
  chatModels: FileChatModel[];
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;
export const DEFAULT_MODEL_TIME_LIMIT_MS = 600_000;

/** One line naming the file, the place and what is wrong; the app exits with it. */
export class ProvidersFileError extends Error {
  constructor(source: string, path: string, problem: string) {
    super(`Invalid providers file ${source}: ${path ? `${path} ` : ''}${problem}`);
    this.name = 'ProvidersFileError';
  }
}
