import {
  ImageToVideoInputDto,
  TextToImageInputDto,
  TextToSpeechInputDto,
} from '@genhub/contracts/server';
import { Channels, ModelDefinition, ModelRoute } from '../contract/model-adapter.types';
import { AdapterRegistry } from '../registry/adapter-registry.service';
import { TextToImageAdapter } from './image/text-to-image.adapter';
import { SimulatorAdapter } from './simulator.adapter';
import { SimulatorInputDto } from '@genhub/contracts/server';
import { TextToSpeechAdapter } from './speech/text-to-speech.adapter';
import { ImageToVideoAdapter } from './video/image-to-video.adapter';

export const LOCAL_PROVIDER = 'local';
export const SIMULATOR_SLUG = 'local/simulator/test';
export const SIMULATOR_ADAPTER_KEY = 'local.simulator';
/** 0.001 of the account's currency per task. */
export const SIMULATOR_PRICE_UNITS = 1000;

/** A local model served by one adapter on every channel at one price. */
function localModel(
  parts: Omit<ModelDefinition, 'slug' | 'provider' | 'defaultChannel' | 'channels'> & {
    adapter: string;
    priceUnits: number;
  },
): ModelDefinition {
  const { adapter, priceUnits, ...definition } = parts;
  const route: ModelRoute = { adapter, upstreamModel: parts.model, priceUnits };
  return {
    ...definition,
    slug: `${LOCAL_PROVIDER}/${parts.model}/${parts.runType}`,
    provider: LOCAL_PROVIDER,
    defaultChannel: 'stable',
    channels: Object.fromEntries(Channels.map((c) => [c, [route]])),
  };
}

export const SIMULATOR_MODEL: ModelDefinition = localModel({
  model: 'simulator',
  runType: 'test',
  name: 'Simulator',
  category: 'test',
  description:
    'Built-in test model: waits duration_ms, fails with fail_code, produces num_outputs PNG images.',
  inputSchema: SimulatorInputDto,
  adapter: SIMULATOR_ADAPTER_KEY,
  priceUnits: SIMULATOR_PRICE_UNITS,
  // duration_ms may be 10 minutes; the limit leaves room for the outputs.
  timeLimitMs: 660_000,
});

export const LOCAL_IMAGE_ADAPTER_KEY = 'local.image';
export const LOCAL_SPEECH_ADAPTER_KEY = 'local.speech';
export const LOCAL_VIDEO_ADAPTER_KEY = 'local.video';

const VIDEO_DESCRIPTION =
  'animated WebP or GIF (not a video file), 384 px on the long side, duration × fps frames of a seeded pan-and-zoom camera; no motion synthesis.';

/** The offline generators (ENABLE_LOCAL_MODELS): real files, no network, deterministic for a seed. */
export const LOCAL_MODELS: ModelDefinition[] = [
  localModel({
    model: 'image',
    runType: 'text-to-image',
    name: 'Local image (offline)',
    category: 'text-to-image',
    description:
      'Offline and not a diffusion model: draws seeded abstract shapes over a gradient, coloured by the words of the prompt (negative_prompt words steer colours away), as PNG, JPEG or WebP at exactly aspect_ratio × resolution.',
    inputSchema: TextToImageInputDto,
    adapter: LOCAL_IMAGE_ADAPTER_KEY,
    priceUnits: 2000,
    timeLimitMs: 60_000,
  }),
  localModel({
    model: 'speech',
    runType: 'text-to-speech',
    name: 'Local speech (offline)',
    category: 'text-to-speech',
    description:
      'Offline speech synthesis with eSpeak-NG (robotic formant voice) to a 22.05 kHz mono WAV; the seed sets the pitch. If the engine fails, answers with a tone sequence derived from the text instead of speech.',
    inputSchema: TextToSpeechInputDto,
    adapter: LOCAL_SPEECH_ADAPTER_KEY,
    priceUnits: 1000,
    timeLimitMs: 120_000,
  }),
  localModel({
    model: 'video',
    runType: 'image-to-video',
    name: 'Local video (offline)',
    category: 'image-to-video',
    description: `Offline: animates image_url (or, without it, a seeded abstract drawing of the prompt) as an ${VIDEO_DESCRIPTION}`,
    inputSchema: ImageToVideoInputDto,
    adapter: LOCAL_VIDEO_ADAPTER_KEY,
    priceUnits: 5000,
    timeLimitMs: 120_000,
  }),
  localModel({
    model: 'video',
    runType: 'text-to-video',
    name: 'Local video (offline)',
    category: 'text-to-video',
    description: `Offline: animates a seeded abstract drawing of the prompt (or image_url when given) as an ${VIDEO_DESCRIPTION}`,
    inputSchema: ImageToVideoInputDto,
    adapter: LOCAL_VIDEO_ADAPTER_KEY,
    priceUnits: 5000,
    timeLimitMs: 120_000,
  }),
];

export interface LocalProviderOptions {
  enableSimulator: boolean;
  enableLocalModels: boolean;
}

/** The built-in `local` provider's models and adapters. */
export function localProvider(options: LocalProviderOptions): {
  models: ModelDefinition[];
  register(registry: AdapterRegistry): void;
} {
  return {
    models: [
      ...(options.enableSimulator ? [SIMULATOR_MODEL] : []),
      ...(options.enableLocalModels ? LOCAL_MODELS : []),
    ],
    register(registry) {
      if (options.enableSimulator) registry.register(SIMULATOR_ADAPTER_KEY, new SimulatorAdapter());
      if (options.enableLocalModels) {
        registry.register(LOCAL_IMAGE_ADAPTER_KEY, new TextToImageAdapter());
        registry.register(LOCAL_SPEECH_ADAPTER_KEY, new TextToSpeechAdapter());
        registry.register(LOCAL_VIDEO_ADAPTER_KEY, new ImageToVideoAdapter());
      }
    },
  };
}
