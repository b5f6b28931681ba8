import { Injectable } from '@nestjs/common';
import { TaskRepository } from '@genhub/tasks-data-access';

export const ESTIMATE_SAMPLE = 20;
export const ESTIMATE_MIN_RUNS = 3;
export const ESTIMATE_CACHE_MS = 10_000;

/**
 * `estimated_duration`: the median of the last ESTIMATE_SAMPLE completed runs
 * (submit to result) of the same model and channel, in whole seconds (at least
 * 1); null with fewer than ESTIMATE_MIN_RUNS. Cached per model and channel for
 * ESTIMATE_CACHE_MS so submits do not query it each time.
 */
@Injectable()
export class EstimatedDurationService {
  private readonly cache = new Map<string, { value: number | null; until: number }>();

  constructor(private readonly tasks: TaskRepository) {}

  async estimate(model: string, channel: string): Promise<number | null> {
    const key = `${model}\u0000${channel}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const seconds = await this.tasks.recentRunSeconds(model, channel, ESTIMATE_SAMPLE);
    const value = estimateFrom(seconds);
    this.cache.set(key, { value, until: Date.now() + ESTIMATE_CACHE_MS });
    return value;
  }

  /** Forget cached estimates (tests, or after a burst of completions). */
  clear(): void {
    this.cache.clear();
  }
}

export function estimateFrom(seconds: number[]): number | null {
  if (seconds.length < ESTIMATE_MIN_RUNS) return null;
  const sorted = [...seconds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Math.max(1, Math.round(median));
}
