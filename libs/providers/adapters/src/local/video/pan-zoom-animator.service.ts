// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- sharp 0.35 exports no types (see the file)
/// <reference path="../../types/sharp.d.ts" />
import sharp from 'sharp';
import type { AnimationFormat } from '@genhub/contracts/server';
import { SeededRandom } from '../seeded-random.util';
import type { FrameSize } from '../image/frame-size.util';
import { cameraPath, canvasSize } from './camera-path.util';

export interface AnimationPlan {
  frame: FrameSize;
  frames: number;
  fps: number;
  format: AnimationFormat;
  seed: number;
}

export interface Animation {
  data: Buffer;
  contentType: string;
  extension: string;
}

const ENCODINGS: Record<AnimationFormat, { contentType: string; extension: string }> = {
  webp: { contentType: 'image/webp', extension: 'webp' },
  gif: { contentType: 'image/gif', extension: 'gif' },
};

/**
 * Per-frame delays in ms whose sum is exactly frames / fps seconds: 1000/fps
 * is rarely whole, so delays alternate (41, 42, 42, … at 24 fps). GIF stores
 * hundredths of a second, so its delays are multiples of 10 ms.
 */
export function frameDelays(frames: number, fps: number, format: AnimationFormat): number[] {
  const unitMs = format === 'gif' ? 10 : 1;
  const tick = (i: number) => Math.round((i * 1000) / fps / unitMs) * unitMs;
  return Array.from({ length: frames }, (_, i) => tick(i + 1) - tick(i));
}

/**
 * Animates a still picture with a seeded pan-and-zoom ("Ken Burns") camera and
 * writes the frames as an animated WebP or GIF with sharp.
 */
export class PanZoomAnimator {
  /** The canvas the camera moves over, from any image sharp decodes (cover-cropped). */
  async canvasFromImage(image: Buffer, frame: FrameSize, frames: number): Promise<Buffer> {
    const canvas = canvasSize(frame, frames);
    return sharp(image)
      .rotate()
      .resize(canvas.width, canvas.height, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer();
  }

  /**
   * Renders the frames from an RGB `canvas` of canvasSize(plan.frame, plan.frames). Checks
   * `signal` between frames and reports progress (0..0.9 for frames, 1 when encoded).
   */
  async animate(
    canvas: Buffer,
    plan: AnimationPlan,
    signal: AbortSignal,
    progress?: (fraction: number) => void,
  ): Promise<Animation> {
    const { frame, frames } = plan;
    const size = canvasSize(frame, frames);
    const frameBytes = frame.width * frame.height * 3;
    const strip = Buffer.alloc(frameBytes * frames);
    const windows = cameraPath(frame, frames, new SeededRandom(plan.seed));
    for (const [i, window] of windows.entries()) {
      if (signal.aborted) throw signal.reason;
      const pixels = await sharp(canvas, { raw: { ...size, channels: 3 } })
        .extract(window)
        .resize(frame.width, frame.height, { fit: 'fill' })
        .raw()
        .toBuffer();
      pixels.copy(strip, i * frameBytes);
      progress?.((0.9 * (i + 1)) / frames);
    }
    if (signal.aborted) throw signal.reason;
    const animation = { loop: 0, delay: frameDelays(frames, plan.fps, plan.format) };
    const image = sharp(strip, {
      raw: {
        width: frame.width,
        height: frame.height * frames,
        channels: 3,
        pageHeight: frame.height,
      },
    });
    const data = await (
      plan.format === 'gif'
        ? image.gif({ ...animation, effort: 3, keepDuplicateFrames: true })
        : image.webp({ ...animation, quality: 80 })
    ).toBuffer();
    progress?.(1);
    return { data, ...ENCODINGS[plan.format] };
  }
}
