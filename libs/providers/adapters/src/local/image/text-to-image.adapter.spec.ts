import sharp from 'sharp';
import type { TextToImageInputDto } from '@genhub/contracts/server';
import { onlyBytes, runContext } from '../test/run-context.util';
import { frameSize } from './frame-size.util';
import { TextToImageAdapter } from './text-to-image.adapter';

const adapter = new TextToImageAdapter();
const run = (input: Partial<TextToImageInputDto>, signal?: AbortSignal) =>
  adapter.run(
    runContext({ prompt: 'a red fox in the snow', ...input } as TextToImageInputDto, { signal }),
  );

describe('frameSize', () => {
  it('puts the long side on the wider dimension', () => {
    expect(frameSize('1:1', 1024)).toEqual({ width: 1024, height: 1024 });
    expect(frameSize('16:9', 1024)).toEqual({ width: 1024, height: 576 });
    expect(frameSize('9:16', 512)).toEqual({ width: 288, height: 512 });
    expect(frameSize('3:2', 512)).toEqual({ width: 512, height: 341 });
    expect(frameSize('3:4', 2048)).toEqual({ width: 1536, height: 2048 });
  });
});

describe('TextToImageAdapter', () => {
  it('by default draws one 1024×1024 PNG', async () => {
    const context = runContext({ prompt: 'a red fox' } as TextToImageInputDto);
    const image = onlyBytes(await adapter.run(context));
    expect(image).toMatchObject({ contentType: 'image/png', extension: 'png' });
    expect(await sharp(image.data).metadata()).toMatchObject({
      format: 'png',
      width: 1024,
      height: 1024,
    });
    expect(context.reported).toEqual([1]);
  });

  it.each([
    ['png', '16:9', '512', 'image/png', 512, 288],
    ['jpeg', '9:16', '1024', 'image/jpeg', 576, 1024],
    ['webp', '4:3', '512', 'image/webp', 512, 384],
    ['png', '2:3', '2048', 'image/png', 1365, 2048],
  ] as const)(
    'writes a real %s at %s × %s',
    async (output_format, aspect_ratio, resolution, contentType, width, height) => {
      const image = onlyBytes(await run({ output_format, aspect_ratio, resolution }));
      expect(image.contentType).toBe(contentType);
      const meta = await sharp(image.data).metadata();
      expect(meta).toMatchObject({ format: output_format, width, height });
    },
  );

  it('is deterministic: the same seed gives the same bytes, another seed or prompt others', async () => {
    for (const output_format of ['png', 'jpeg', 'webp'] as const) {
      const input = { output_format, resolution: '512' as const, seed: 7 };
      const a = onlyBytes(await run(input)).data;
      expect(onlyBytes(await run(input)).data.equals(a)).toBe(true);
      expect(onlyBytes(await run({ ...input, seed: 8 })).data.equals(a)).toBe(false);
      expect(onlyBytes(await run({ ...input, prompt: 'a blue whale' })).data.equals(a)).toBe(false);
    }
  });

  it('draws num_outputs distinct images and reports progress per image', async () => {
    const context = runContext({
      prompt: 'p',
      num_outputs: 3,
      resolution: '512',
    } as TextToImageInputDto);
    const { outputs } = await adapter.run(context);
    expect(
      new Set(outputs.map((o) => (o.kind === 'bytes' ? o.data.toString('base64') : ''))).size,
    ).toBe(3);
    expect(context.reported.map((f) => f.toFixed(2))).toEqual(['0.33', '0.67', '1.00']);
  });

  it('stops when the signal has fired', async () => {
    const controller = new AbortController();
    controller.abort(new Error('deleted'));
    await expect(run({}, controller.signal)).rejects.toThrow('deleted');
  });
});
