import {
  SpeechToTextInputDto,
  TextToImageInputDto,
  TextToSpeechInputDto,
} from '@genhub/contracts/server';
import type { ChatModelDto } from '@genhub/contracts/server';
import { CHAT_MODELS_CREATED, type ModelCatalogue, type ModelDefinition } from '@genhub/providers';

/** What an OpenAI-compatible media route asks of a model. */
export type MediaRoute = 'images' | 'speech' | 'transcriptions';

/** The input each route maps onto (decision 0136): a model whose input is that schema. */
const ROUTE_INPUTS: Record<MediaRoute, new () => object> = {
  images: TextToImageInputDto,
  speech: TextToSpeechInputDto,
  transcriptions: SpeechToTextInputDto,
};

/** What a model of each route does, as a refusal of another model says it. */
export const ROUTE_ABILITIES: Record<MediaRoute, string> = {
  images: 'generate images (POST /v1/images/generations)',
  speech: 'synthesize speech (POST /v1/audio/speech)',
  transcriptions: 'transcribe audio (POST /v1/audio/transcriptions)',
};

/** The media route a catalogue model serves, by its input schema; undefined: none. */
export function mediaRouteOf(model: ModelDefinition): MediaRoute | undefined {
  return (Object.keys(ROUTE_INPUTS) as MediaRoute[]).find(
    (route) => model.inputSchema === ROUTE_INPUTS[route],
  );
}

/**
 * The catalogue's models a media route takes, as `GET /v1/models` lists them after the chat
 * models: by their full slug, `owned_by` their provider.
 */
export function mediaModelViews(catalogue: ModelCatalogue): ChatModelDto[] {
  return catalogue
    .all()
    .filter((model) => mediaRouteOf(model))
    .map((model) => ({
      id: model.slug,
      object: 'model',
      created: CHAT_MODELS_CREATED,
      owned_by: model.provider,
    }));
}
