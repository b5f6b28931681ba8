import { TASK_CODES, TaskFailureCode } from '@genhub/errors';

/** What a model run produced. The worker stores bytes and fetched URLs; text stays text (speech-to-text). */
export type AdapterOutput =
  | { kind: 'bytes'; data: Buffer; contentType: string; extension: string }
  | { kind: 'url'; url: string }
  | { kind: 'text'; text: string };

export interface AdapterResult {
  outputs: AdapterOutput[];
}

/** A downloaded media input: already checked for size, type and network safety. */
export interface MediaInput {
  data: Buffer;
  contentType: string;
}

export interface RunContext<I = Record<string, unknown>> {
  taskId: string;
  /** The validated input (an instance of the model's input DTO). */
  input: I;
  /** The route chosen for this attempt (provider, upstream model). */
  route: ModelRoute;
  /** Fires when the task is deleted or its time limit passes; adapters must stop and cancel upstream. */
  signal: AbortSignal;
  /** Downloads an input URL with the platform's guards (time, size, private networks, sniffing). Throws AdapterError 1402. */
  fetchMedia(url: string, kind: MediaKind): Promise<MediaInput>;
  /** Optional progress report, 0..1. */
  progress?(fraction: number): void;
}

export type MediaKind = 'image' | 'video' | 'audio';

/** Runs one model. Plain classes, testable without Nest. */
export interface ModelAdapter<I = Record<string, unknown>> {
  run(context: RunContext<I>): Promise<AdapterResult>;
}

/**
 * Every failure an adapter reports is a catalogue task code. `transient`
 * failures (5000/5003/5004 by default) let the worker fall over to the next
 * route of the channel.
 */
export class AdapterError extends Error {
  readonly transient: boolean;

  constructor(
    readonly code: TaskFailureCode,
    readonly detail?: string,
    transient?: boolean,
  ) {
    super(detail ?? TASK_CODES[code].message);
    this.name = 'AdapterError';
    this.transient = transient ?? TASK_CODES[code].transient;
  }
}

export const Channels = ['economy', 'stable', 'official'] as const;
export type ChannelName = (typeof Channels)[number];

/** One way to run a model: which adapter, which upstream model, at what price. */
export interface ModelRoute {
  /** Key of the adapter in the adapter registry, e.g. `local.simulator`, `openai`. */
  adapter: string;
  /** The upstream's own model name (or the local generator's). */
  upstreamModel: string;
  /** Price per task in micro-units of the account's currency. */
  priceUnits: number;
  /**
   * What the upstream is asked to do (the model's input kind, e.g.
   * `text-to-image`), for adapters that serve several kinds of models.
   */
  kind?: string;
}

/** A catalogue entry: everything needed to validate, price, run and list a model. */
export interface ModelDefinition {
  /** `{provider}/{model}/{run_type}` */
  slug: string;
  provider: string;
  model: string;
  runType: string;
  name: string;
  category: string;
  description: string;
  /** class-validator DTO class: validates submits and feeds the OpenAPI document. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inputSchema: new () => any;
  defaultChannel: ChannelName;
  /** Route lists per channel, tried in order on transient failures. */
  channels: Partial<Record<ChannelName, ModelRoute[]>>;
  /** Hard time limit of one run (exceeded → task code 5004). */
  timeLimitMs: number;
}
