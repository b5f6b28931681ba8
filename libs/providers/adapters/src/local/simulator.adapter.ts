// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- sharp 0.35 exports no types (see the file)
/// <reference path="../types/sharp.d.ts" />
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  AdapterError,
  AdapterResult,
  ModelAdapter,
  RunContext,
} from '../contract/model-adapter.types';
import { SimulatorInputDto } from '@genhub/contracts/server';

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A small real PNG whose pixels derive from the prompt, the seed and the index only. */
export async function renderSimulatorPng(
  prompt: string,
  seed: number,
  index: number,
): Promise<Buffer> {
  const digest = createHash('sha256').update(`${seed}\u0000${index}\u0000${prompt}`).digest();
  const size = 64;
  const pixels = Buffer.alloc(size * size * 3);
  const [r1, g1, b1, r2, g2, b2] = digest;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cell = ((x >> 3) + (y >> 3) + digest[8 + ((x >> 3) % 8)]) % 2 === 0;
      const o = (y * size + x) * 3;
      pixels[o] = cell ? r1 : r2;
      pixels[o + 1] = cell ? g1 : g2;
      pixels[o + 2] = cell ? b1 : b2;
    }
  }
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/**
 * The built-in model that exercises every path of a client without an upstream
 * (docs/interface.md, "Simulator model"): waits, fails on request, produces PNGs.
 */
export class SimulatorAdapter implements ModelAdapter<SimulatorInputDto> {
  async run(context: RunContext<SimulatorInputDto>): Promise<AdapterResult> {
    const { input, signal } = context;
    if (input.image_url) await context.fetchMedia(input.image_url, 'image');
    await abortableDelay(input.duration_ms ?? 0, signal);
    if (input.fail_code !== undefined && input.fail_code !== null) {
      throw new AdapterError(input.fail_code);
    }
    const count = input.num_outputs ?? 1;
    const outputs: AdapterResult['outputs'] = [];
    for (let i = 0; i < count; i++) {
      if (signal.aborted) throw signal.reason;
      const data = await renderSimulatorPng(input.prompt, input.seed ?? 0, i);
      outputs.push({ kind: 'bytes', data, contentType: 'image/png', extension: 'png' });
    }
    return { outputs };
  }
}
