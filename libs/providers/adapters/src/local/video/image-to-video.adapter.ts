// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- sharp 0.35 exports no types (see the file)
/// <reference path="../../types/sharp.d.ts" />
import type { ImageToVideoInputDto } from '@genhub/contracts/server';
import {
  AdapterError,
  AdapterResult,
  ModelAdapter,
  RunContext,
} from '../../contract/model-adapter.types';
import { AbstractImageGenerator } from '../image/abstract-image.generator';
import { FrameSize, frameSize } from '../image/frame-size.util';
import { seedFrom } from '../seeded-random.util';
import { canvasSize } from './camera-path.util';
import { PanZoomAnimator } from './pan-zoom-animator.service';
import { TaskCode } from '@genhub/errors';

/** Long side of the local videos in pixels: keeps 240 raw frames under ~110 MB. */
export const VIDEO_LONG_SIDE = 384;

/**
 * `local/video/image-to-video` and `local/video/text-to-video`: a pan-and-zoom
 * over the input image, or over a seeded abstract drawing of the prompt when
 * there is none, as an animated WebP or GIF of duration × fps frames.
 */
export class ImageToVideoAdapter implements ModelAdapter<ImageToVideoInputDto> {
  constructor(
    private readonly animator = new PanZoomAnimator(),
    private readonly images = new AbstractImageGenerator(),
  ) {}

  async run(context: RunContext<ImageToVideoInputDto>): Promise<AdapterResult> {
    const { input, signal } = context;
    const seed = input.seed ?? 0;
    const fps = input.fps ?? 8;
    const frame = frameSize(input.aspect_ratio ?? '16:9', VIDEO_LONG_SIDE);
    const frames = (input.duration ?? 3) * fps;
    const canvas = input.image_url
      ? await this.canvasFromUrl(context, input.image_url, frame, frames)
      : await this.images.renderRaw(
          { prompt: input.prompt, seed, index: 0 },
          canvasSize(frame, frames),
        );
    const video = await this.animator.animate(
      canvas,
      {
        frame,
        frames,
        fps,
        format: input.output_format ?? 'webp',
        seed: seedFrom(seed, 'camera', input.prompt),
      },
      signal,
      context.progress,
    );
    return {
      outputs: [
        {
          kind: 'bytes',
          data: video.data,
          contentType: video.contentType,
          extension: video.extension,
        },
      ],
    };
  }

  private async canvasFromUrl(
    context: RunContext<ImageToVideoInputDto>,
    url: string,
    frame: FrameSize,
    frames: number,
  ): Promise<Buffer> {
    const media = await context.fetchMedia(url, 'image');
    try {
      return await this.animator.canvasFromImage(media.data, frame, frames);
    } catch {
      throw new AdapterError(
        TaskCode.InvalidParameter,
        'image_url is not an image the model can decode',
      );
    }
  }
}
