import { AppException } from '@genhub/errors';
import {
  imageInput,
  sizeToFraming,
  speechInput,
  transcriptionFields,
  transcriptionInput,
} from './openai-params.util';

/** The refusal a mapping throws: its message and the parameter it names. */
function refusal(map: () => unknown): { message: string; param?: string } {
  try {
    map();
  } catch (error) {
    if (error instanceof AppException)
      return { message: error.message, param: error.details.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('OpenAI media parameters → model inputs', () => {
  it('maps size to the nearest framing and the smallest resolution not below the long side', () => {
    expect(sizeToFraming(undefined)).toEqual({});
    expect(sizeToFraming('auto')).toEqual({});
    expect(sizeToFraming('1024x1024')).toEqual({ aspect_ratio: '1:1', resolution: '1024' });
    expect(sizeToFraming('256x256')).toEqual({ aspect_ratio: '1:1', resolution: '512' });
    expect(sizeToFraming('1536x1024')).toEqual({ aspect_ratio: '3:2', resolution: '2048' });
    expect(sizeToFraming('1024x1536')).toEqual({ aspect_ratio: '2:3', resolution: '2048' });
    expect(sizeToFraming('1792x1024')).toEqual({ aspect_ratio: '16:9', resolution: '2048' });
    expect(sizeToFraming('1024x1792')).toEqual({ aspect_ratio: '9:16', resolution: '2048' });
    expect(sizeToFraming('1024x768')).toEqual({ aspect_ratio: '4:3', resolution: '1024' });
  });

  it('refuses a size it cannot honour, naming size', () => {
    expect(refusal(() => sizeToFraming('big'))).toEqual({
      message: 'Invalid request: size must be WIDTHxHEIGHT (e.g. 1024x1024) or auto',
      param: 'size',
    });
    expect(refusal(() => sizeToFraming('0x10')).param).toBe('size');
    expect(refusal(() => sizeToFraming('4096x4096')).message).toBe(
      'Invalid request: size 4096x4096: the long side may be at most 2048',
    );
    expect(refusal(() => sizeToFraming('1000x200')).message).toContain(
      'the ratio must be one of 1:1, 16:9',
    );
  });

  it('builds the image input from prompt, n, size and output_format, nothing else', () => {
    expect(
      imageInput({
        model: 'local/image/text-to-image',
        prompt: 'a fox',
        n: 3,
        size: '512x512',
        response_format: 'b64_json',
        output_format: 'webp',
        quality: 'hd',
      }),
    ).toEqual({
      prompt: 'a fox',
      num_outputs: 3,
      aspect_ratio: '1:1',
      resolution: '512',
      output_format: 'webp',
    });
    expect(imageInput({ model: 'm', prompt: 'p' })).toEqual({ prompt: 'p' });
  });

  it('builds the speech input: known voices pass, OpenAI voices fall back, speed in words per minute', () => {
    expect(speechInput({ model: 'm', input: 'hi', voice: 'fr', speed: 1.2 })).toEqual({
      text: 'hi',
      voice: 'fr',
      speed: 210,
    });
    expect(
      speechInput({ model: 'm', input: 'hi', voice: 'alloy', response_format: 'wav' }),
    ).toEqual({ text: 'hi' });
    expect(speechInput({ model: 'm', input: 'hi', speed: 0.25 })).toEqual({
      text: 'hi',
      speed: 80,
    });
    expect(speechInput({ model: 'm', input: 'hi', speed: 4 })).toEqual({ text: 'hi', speed: 450 });
    expect(
      refusal(() => speechInput({ model: 'm', input: 'hi', response_format: 'opus' })),
    ).toEqual({
      message:
        "Invalid request: response_format opus is not produced: genhub's speech models answer wav",
      param: 'response_format',
    });
  });

  it('checks the transcription form and builds its input', () => {
    const fields = transcriptionFields(
      new Map([
        ['model', 'fake/whisper/speech-to-text'],
        ['language', 'en'],
        ['temperature', '0'],
      ]),
    );
    expect(transcriptionInput(fields, 'http://cdn/uploads/a.wav')).toEqual({
      audio_url: 'http://cdn/uploads/a.wav',
      language: 'en',
    });
    expect(refusal(() => transcriptionFields(new Map()))).toEqual({
      message: 'Invalid request: model must be given',
      param: 'model',
    });
    expect(
      refusal(() =>
        transcriptionFields(
          new Map([
            ['model', 'm'],
            ['stream', 'true'],
          ]),
        ),
      ),
    ).toEqual({ message: 'Invalid request: stream is not a known parameter', param: 'stream' });
    expect(
      refusal(() =>
        transcriptionFields(
          new Map([
            ['model', 'm'],
            ['response_format', 'srt'],
          ]),
        ),
      ),
    ).toEqual({
      message: 'Invalid request: response_format srt is not produced: use json or text',
      param: 'response_format',
    });
    expect(
      refusal(() =>
        transcriptionFields(
          new Map([
            ['model', 'm'],
            ['response_format', 'xml'],
          ]),
        ),
      ).param,
    ).toBe('response_format');
  });
});
