import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  ImageToVideoInputDto,
  MODEL_INPUTS,
  TextToImageInputDto,
  TextToSpeechInputDto,
} from './index';

function errors<T extends object>(type: new () => T, plain: object): string[] {
  const instance = plainToInstance(type, plain);
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true })
    .map((error) => error.property)
    .sort();
}

describe('model input DTOs', () => {
  it('TextToImageInputDto: prompt required, enums and ranges enforced', () => {
    expect(errors(TextToImageInputDto, { prompt: 'x' })).toEqual([]);
    expect(
      errors(TextToImageInputDto, {
        prompt: 'x',
        negative_prompt: 'y',
        aspect_ratio: '2:3',
        resolution: '2048',
        output_format: 'webp',
        num_outputs: 4,
        seed: 2_147_483_647,
        channel: 'economy',
      }),
    ).toEqual([]);
    expect(
      errors(TextToImageInputDto, {
        prompt: 'x'.repeat(4001),
        aspect_ratio: '5:4',
        resolution: '4096',
        output_format: 'tiff',
        num_outputs: 0,
        seed: -1,
        extra: true,
      }),
    ).toEqual([
      'aspect_ratio',
      'extra',
      'num_outputs',
      'output_format',
      'prompt',
      'resolution',
      'seed',
    ]);
  });

  it('TextToSpeechInputDto: text required, known voices, speed in words per minute', () => {
    expect(errors(TextToSpeechInputDto, { text: 'hi', voice: 'fr', speed: 450, seed: 3 })).toEqual(
      [],
    );
    expect(errors(TextToSpeechInputDto, { text: '', voice: 'xx', speed: 79 })).toEqual([
      'speed',
      'text',
      'voice',
    ]);
    expect(errors(TextToSpeechInputDto, { text: 'x'.repeat(5001) })).toEqual(['text']);
  });

  it('ImageToVideoInputDto: http(s) image, duration 1..10 s, fps 4..24, animated formats', () => {
    expect(
      errors(ImageToVideoInputDto, {
        prompt: 'p',
        image_url: 'http://127.0.0.1:9000/a.png',
        duration: 10,
        fps: 24,
        output_format: 'gif',
        aspect_ratio: '9:16',
      }),
    ).toEqual([]);
    expect(
      errors(ImageToVideoInputDto, {
        prompt: 'p',
        image_url: 'ftp://a/b',
        duration: 11,
        fps: 3,
        output_format: 'mp4',
      }),
    ).toEqual(['duration', 'fps', 'image_url', 'output_format']);
  });

  it('MODEL_INPUTS maps each kind to its input class', () => {
    expect(MODEL_INPUTS['text-to-image']).toBe(TextToImageInputDto);
    expect(MODEL_INPUTS['text-to-speech']).toBe(TextToSpeechInputDto);
    expect(MODEL_INPUTS['image-to-video']).toBe(ImageToVideoInputDto);
    expect(MODEL_INPUTS['text-to-video']).toBe(ImageToVideoInputDto);
  });
});
