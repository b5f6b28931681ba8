// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- sharp 0.35 exports no types (see the file)
/// <reference path="../../types/sharp.d.ts" />
import sharp from 'sharp';
import type { ImageFormat } from '@genhub/contracts/server';
import { abstractDrawingSvg, DrawingInput } from './abstract-drawing.util';
import type { FrameSize } from './frame-size.util';

export interface EncodedImage {
  data: Buffer;
  contentType: string;
  extension: string;
}

const ENCODINGS: Record<ImageFormat, { contentType: string; extension: string }> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
};

/** Renders the seeded abstract drawing to image files or raw pixels, with sharp. */
export class AbstractImageGenerator {
  /** An image file of exactly `size`; same input → same bytes (sharp writes no timestamps). */
  async render(input: DrawingInput, size: FrameSize, format: ImageFormat): Promise<EncodedImage> {
    const image = this.rasterise(input, size);
    const data = await (
      format === 'png'
        ? image.png({ compressionLevel: 6 })
        : format === 'jpeg'
          ? image.jpeg({ quality: 90 })
          : image.webp({ quality: 85 })
    ).toBuffer();
    return { data, ...ENCODINGS[format] };
  }

  /** RGB pixels of the drawing (the first frame of a text-to-video). */
  async renderRaw(input: DrawingInput, size: FrameSize): Promise<Buffer> {
    return this.rasterise(input, size).removeAlpha().raw().toBuffer();
  }

  private rasterise(input: DrawingInput, size: FrameSize) {
    return sharp(Buffer.from(abstractDrawingSvg(input, size)));
  }
}
