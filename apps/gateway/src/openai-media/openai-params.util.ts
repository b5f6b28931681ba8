import {
  ASPECT_RATIOS,
  type AspectRatio,
  IMAGE_RESOLUTIONS,
  type ImageGenerationRequestDto,
  MAX_SPEECH_WPM,
  MIN_SPEECH_WPM,
  SPEECH_VOICES,
  type SpeechRequestDto,
  TRANSCRIPTION_RESPONSE_FORMATS,
} from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';

// OpenAI's request fields → a genhub model's input (docs/api-guide.md, "Using the openai SDK
// for images and audio"; decision 0136). The model then validates its input as any submit does.

/** The speaking rate OpenAI's `speed: 1` stands for: the local model's default. */
export const DEFAULT_SPEECH_WPM = 175;

/** How far a size's ratio may be from a genhub framing and still be taken as it. */
const RATIO_TOLERANCE = 0.03;

function invalid(param: string, message: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, {
    message: `Invalid request: ${message}`,
    param,
  });
}

/**
 * OpenAI's `size` → `aspect_ratio` and `resolution`: the framing nearest the size's ratio
 * (within 3%: 1792×1024 is 16:9) and the smallest resolution at least its long side, so the
 * image is never smaller than asked. `auto` or unset: the model's defaults.
 */
export function sizeToFraming(
  size: string | undefined,
): { aspect_ratio: AspectRatio; resolution: string } | Record<string, never> {
  if (size === undefined || size === 'auto') return {};
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || !width || !height)
    throw invalid('size', 'size must be WIDTHxHEIGHT (e.g. 1024x1024) or auto');
  const long = Math.max(width, height);
  const resolution = IMAGE_RESOLUTIONS.find((r) => Number(r) >= long);
  if (!resolution)
    throw invalid('size', `size ${size}: the long side may be at most ${IMAGE_RESOLUTIONS.at(-1)}`);
  const ratio = width / height;
  const framing = ASPECT_RATIOS.map((r) => {
    const [w, h] = r.split(':').map(Number);
    return { r, off: Math.abs(w / h - ratio) / (w / h) };
  }).sort((a, b) => a.off - b.off)[0];
  if (framing.off > RATIO_TOLERANCE)
    throw invalid('size', `size ${size}: the ratio must be one of ${ASPECT_RATIOS.join(', ')}`);
  return { aspect_ratio: framing.r, resolution };
}

/** A text-to-image model's input from `POST /v1/images/generations`. */
export function imageInput(body: ImageGenerationRequestDto): Record<string, unknown> {
  return {
    prompt: body.prompt,
    ...(body.n !== undefined ? { num_outputs: body.n } : {}),
    ...sizeToFraming(body.size),
    ...(body.output_format ? { output_format: body.output_format } : {}),
  };
}

/** A text-to-speech model's input from `POST /v1/audio/speech`; only WAV is produced. */
export function speechInput(body: SpeechRequestDto): Record<string, unknown> {
  if (body.response_format !== undefined && body.response_format !== 'wav')
    throw invalid(
      'response_format',
      `response_format ${body.response_format} is not produced: genhub's speech models answer wav`,
    );
  const voice = (SPEECH_VOICES as readonly string[]).includes(body.voice ?? '')
    ? { voice: body.voice }
    : {};
  const speed =
    body.speed === undefined
      ? {}
      : {
          speed: Math.min(
            MAX_SPEECH_WPM,
            Math.max(MIN_SPEECH_WPM, Math.round(body.speed * DEFAULT_SPEECH_WPM)),
          ),
        };
  return { text: body.input, ...voice, ...speed };
}

/** The form fields `POST /v1/audio/transcriptions` reads; the rest are refused by name. */
const TRANSCRIPTION_FIELDS = [
  'model',
  'response_format',
  'language',
  'prompt',
  'temperature',
  'timestamp_granularities[]',
] as const;

export type TranscriptionFields = Partial<Record<(typeof TRANSCRIPTION_FIELDS)[number], string>> & {
  model: string;
};

/** The form's fields, checked: a model named, known fields only, a format we answer. */
export function transcriptionFields(fields: Map<string, string>): TranscriptionFields {
  for (const name of fields.keys())
    if (!(TRANSCRIPTION_FIELDS as readonly string[]).includes(name))
      throw invalid(name, `${name} is not a known parameter`);
  const model = fields.get('model');
  if (!model) throw invalid('model', 'model must be given');
  const format = fields.get('response_format');
  if (
    format !== undefined &&
    !(TRANSCRIPTION_RESPONSE_FORMATS as readonly string[]).includes(format)
  )
    throw invalid(
      'response_format',
      `response_format must be one of ${TRANSCRIPTION_RESPONSE_FORMATS.join(', ')}`,
    );
  if (format !== undefined && format !== 'json' && format !== 'text')
    throw invalid('response_format', `response_format ${format} is not produced: use json or text`);
  return Object.fromEntries(fields) as TranscriptionFields;
}

/** A speech-to-text model's input: the stored upload and the form's language and prompt. */
export function transcriptionInput(
  fields: TranscriptionFields,
  audioUrl: string,
): Record<string, unknown> {
  return {
    audio_url: audioUrl,
    ...(fields.language ? { language: fields.language } : {}),
    ...(fields.prompt ? { prompt: fields.prompt } : {}),
  };
}
