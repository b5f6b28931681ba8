import { SimulatorInputDto } from '../model.dto';
import { ImageToVideoInputDto } from './image-to-video.input.dto';
import { SpeechToTextInputDto } from './speech-to-text.input.dto';
import { TextToImageInputDto } from './text-to-image.input.dto';
import { TextToSpeechInputDto } from './text-to-speech.input.dto';

export * from './image-to-video.input.dto';
export * from './model-input-base.dto';
export * from './speech-to-text.input.dto';
export * from './text-to-image.input.dto';
export * from './text-to-speech.input.dto';

/**
 * Each kind of model input (the run type's vocabulary) → its validating DTO
 * class. Local models and the providers file (`"input": "speech-to-text"`)
 * name their input by these keys.
 */
export const MODEL_INPUTS = {
  test: SimulatorInputDto,
  'text-to-image': TextToImageInputDto,
  'text-to-speech': TextToSpeechInputDto,
  'speech-to-text': SpeechToTextInputDto,
  'image-to-video': ImageToVideoInputDto,
  'text-to-video': ImageToVideoInputDto,
} as const satisfies Record<string, new () => object>;

export type ModelInputKind = keyof typeof MODEL_INPUTS;
export const MODEL_INPUT_KINDS = Object.keys(MODEL_INPUTS) as ModelInputKind[];
