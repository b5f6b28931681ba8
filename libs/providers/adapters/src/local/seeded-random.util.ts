import { createHash } from 'node:crypto';

/** A 32-bit seed mixing the caller's seed with the texts that shape the output. */
export function seedFrom(seed: number, ...parts: string[]): number {
  return createHash('sha256')
    .update(`${seed}\u0000${parts.join('\u0000')}`)
    .digest()
    .readUInt32LE(0);
}

/**
 * mulberry32: a tiny, fast PRNG. The local generators draw every random choice
 * from it so the same seed gives the same bytes (never Math.random).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator with the helpers the drawings need. */
export class SeededRandom {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor((max - min + 1) * this.next());
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(items.length * this.next())];
  }
}
