import type { AspectRatio } from '@genhub/contracts/server';

export interface FrameSize {
  width: number;
  height: number;
}

/** Width × height for a `w:h` framing whose long side is `longSide` pixels. */
export function frameSize(aspectRatio: AspectRatio, longSide: number): FrameSize {
  const [w, h] = aspectRatio.split(':').map(Number);
  return w >= h
    ? { width: longSide, height: Math.round((longSide * h) / w) }
    : { width: Math.round((longSide * w) / h), height: longSide };
}
