import sharp from 'sharp';
import type { ImageToVideoInputDto } from '@genhub/contracts/server';
import { onlyBytes, runContext } from '../test/run-context.util';
import { ImageToVideoAdapter } from './image-to-video.adapter';
import { frameDelays } from './pan-zoom-animator.service';

const adapter = new ImageToVideoAdapter();
const PHOTO_URL = 'http://img.test/photo.png';

async function photo(): Promise<Buffer> {
  const pixels = Buffer.alloc(300 * 200 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 251;
  return sharp(pixels, { raw: { width: 300, height: 200, channels: 3 } })
    .png()
    .toBuffer();
}

async function animate(input: Partial<ImageToVideoInputDto>, signal?: AbortSignal) {
  const context = runContext({ prompt: 'waves at dusk', ...input } as ImageToVideoInputDto, {
    signal,
    media: { [PHOTO_URL]: { data: await photo(), contentType: 'image/png' } },
  });
  return { video: onlyBytes(await adapter.run(context)), context };
}

async function frames(data: Buffer) {
  return sharp(data, { animated: true }).metadata();
}

describe('ImageToVideoAdapter', () => {
  it('by default writes a 3 s, 8 fps, 16:9 animated WebP (24 frames × 125 ms)', async () => {
    const { video, context } = await animate({});
    expect(video).toMatchObject({ contentType: 'image/webp', extension: 'webp' });
    const meta = await frames(video.data);
    expect(meta).toMatchObject({ format: 'webp', width: 384, pageHeight: 216, pages: 24, loop: 0 });
    expect(meta.delay).toEqual(new Array(24).fill(125));
    expect(meta.delay?.reduce((a, b) => a + b, 0)).toBe(3000);
    expect(context.reported.at(-1)).toBe(1);
    expect(context.reported).toEqual([...context.reported].sort((a, b) => a - b));
  });

  it('animates the fetched image_url as a GIF of duration × fps frames', async () => {
    const { video, context } = await animate({
      image_url: PHOTO_URL,
      output_format: 'gif',
      duration: 2,
      fps: 5,
      aspect_ratio: '9:16',
    });
    expect(context.fetched).toEqual([PHOTO_URL]);
    expect(video.contentType).toBe('image/gif');
    const meta = await frames(video.data);
    expect(meta).toMatchObject({ format: 'gif', width: 216, pageHeight: 384, pages: 10 });
    // GIF stores hundredths of a second: 200 ms per frame, 2 s in all.
    expect(meta.delay?.reduce((a, b) => a + b, 0)).toBe(2000);
  });

  it('keeps the exact duration when 1000 / fps is not whole', async () => {
    const { video } = await animate({ duration: 1, fps: 24, aspect_ratio: '1:1' });
    const meta = await frames(video.data);
    expect(meta).toMatchObject({ width: 384, pageHeight: 384, pages: 24 });
    expect(new Set(meta.delay)).toEqual(new Set([41, 42]));
    expect(meta.delay?.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it('moves the camera: frames differ from one another', async () => {
    const { video } = await animate({ duration: 1, fps: 4 });
    const meta = await frames(video.data);
    const first = await sharp(video.data, { page: 0 }).raw().toBuffer();
    const last = await sharp(video.data, { page: (meta.pages ?? 1) - 1 })
      .raw()
      .toBuffer();
    expect(first.equals(last)).toBe(false);
  });

  it('is deterministic: the same seed gives the same bytes, another seed others', async () => {
    const input = { duration: 1, fps: 4, seed: 11 };
    const a = (await animate(input)).video.data;
    expect((await animate(input)).video.data.equals(a)).toBe(true);
    expect((await animate({ ...input, seed: 12 })).video.data.equals(a)).toBe(false);
  });

  it('fails with 1402 when image_url cannot be fetched, 1401 when it does not decode', async () => {
    await expect(animate({ image_url: 'http://img.test/missing.png' })).rejects.toMatchObject({
      code: 1402,
    });
    const context = runContext({ prompt: 'p', image_url: PHOTO_URL } as ImageToVideoInputDto, {
      media: { [PHOTO_URL]: { data: Buffer.from('GIF89a broken'), contentType: 'image/gif' } },
    });
    await expect(adapter.run(context)).rejects.toMatchObject({ code: 1401 });
  });

  it('stops between frames when the signal fires', async () => {
    const controller = new AbortController();
    const context = runContext(
      { prompt: 'p', duration: 10, fps: 24, output_format: 'gif' } as ImageToVideoInputDto,
      { signal: controller.signal },
    );
    context.progress = (fraction) => {
      context.reported.push(fraction);
      if (context.reported.length === 5) controller.abort(new Error('deleted'));
    };
    await expect(adapter.run(context)).rejects.toThrow('deleted');
    expect(context.reported).toHaveLength(5);
  });
});

describe('frameDelays', () => {
  it('sums to the duration in the format’s unit', () => {
    expect(frameDelays(8, 8, 'webp')).toEqual(new Array(8).fill(125));
    expect(frameDelays(8, 8, 'gif')).toEqual([130, 120, 130, 120, 130, 120, 130, 120]);
    const sum = (delays: number[]) => delays.reduce((a, b) => a + b, 0);
    for (const fps of [4, 7, 9, 13, 24])
      for (const format of ['webp', 'gif'] as const)
        expect(sum(frameDelays(fps * 10, fps, format))).toBe(10_000);
  });
});
