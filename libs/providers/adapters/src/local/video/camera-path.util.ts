import { SeededRandom } from '../seeded-random.util';
import type { FrameSize } from '../image/frame-size.util';

export interface Window {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The camera's widest view, as a multiple of the frame (it zooms between 1× and this). */
const MAX_ZOOM = 1.2;
/** Room to pan, as a share of the frame, beyond the widest view. */
const PAN_SHARE = 0.25;

/**
 * The canvas under the camera: the widest view plus room to pan, and at least
 * one pixel of horizontal pan per frame, so that no two frames are identical
 * (the WebP encoder would merge them into one longer frame).
 */
export function canvasSize(frame: FrameSize, frames: number): FrameSize {
  return {
    width:
      Math.ceil(frame.width * MAX_ZOOM) + Math.max(frames, Math.round(frame.width * PAN_SHARE)),
    height: Math.ceil(frame.height * MAX_ZOOM) + Math.round(frame.height * PAN_SHARE),
  };
}

/**
 * A seeded camera move over the canvas: a horizontal pan across it (left to
 * right or back) with a drift up or down and a zoom in or out, at constant
 * speed. One window per frame, each later frame at least one pixel further.
 */
export function cameraPath(frame: FrameSize, frames: number, random: SeededRandom): Window[] {
  const canvas = canvasSize(frame, frames);
  const pose = (side: 'start' | 'end') => {
    const zoom = random.between(1, MAX_ZOOM);
    const width = Math.round(frame.width * zoom);
    const height = Math.round(frame.height * zoom);
    const panRoom = canvas.width - Math.ceil(frame.width * MAX_ZOOM);
    return {
      width,
      height,
      left: side === 'start' ? 0 : panRoom,
      top: random.int(0, canvas.height - height),
    };
  };
  const [from, to] =
    random.float() < 0.5 ? [pose('start'), pose('end')] : [pose('end'), pose('start')];
  const windows: Window[] = [];
  for (let i = 0; i < frames; i++) {
    const t = frames === 1 ? 0 : i / (frames - 1);
    const at = (key: keyof Window) => Math.round(from[key] + (to[key] - from[key]) * t);
    windows.push({ left: at('left'), top: at('top'), width: at('width'), height: at('height') });
  }
  return windows;
}
