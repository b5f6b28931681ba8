import { isUUID } from 'class-validator';
import { newTaskId } from './task-id.util';

const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('newTaskId', () => {
  it('is a version 7 UUID whose first 48 bits are the time it was made', () => {
    const before = Date.now();
    const id = newTaskId();
    const after = Date.now();
    expect(isUUID(id, '7')).toBe(true);
    expect(msOf(id)).toBeGreaterThanOrEqual(before);
    expect(msOf(id)).toBeLessThanOrEqual(after);
  });

  it('sorts after every id of an earlier millisecond', async () => {
    const earlier = Array.from({ length: 100 }, () => newTaskId());
    await sleep(2);
    const later = newTaskId();
    for (const id of earlier) expect(later > id).toBe(true);
  });

  it('keeps the 74 bits after the time random: no two of many alike, none derived from another', () => {
    const ids = Array.from({ length: 10_000 }, () => newTaskId());
    expect(new Set(ids).size).toBe(ids.length);
    // Without the time, version and variant, what is left of ids made in one burst is spread
    // over the whole space, not counted up from the first (as a monotonic v7 would be).
    const tails = ids.map((id) => id.replace(/-/g, '').slice(13));
    expect(new Set(tails.map((t) => t.slice(0, 3))).size).toBeGreaterThan(3000);
  });
});
