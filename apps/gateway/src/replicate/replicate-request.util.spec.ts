import { AppException } from '@genhub/errors';
import {
  decodeListCursor,
  encodeListCursor,
  MAX_TRAIL,
  nextTrail,
  parseCreateBody,
  parsePrefer,
  previousTrail,
} from './replicate-request.util';

/** The refusal `run` throws: its message and the field it names. */
function refusal(run: () => unknown): { message: string; fields?: string[] } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    const { message, details } = error as AppException;
    return { message, fields: details.fields };
  }
  throw new Error('not refused');
}

describe('reading a Replicate request', () => {
  it('takes Prefer: wait (60 s) and wait=n from 1 to 60, and refuses anything else', () => {
    expect(parsePrefer(undefined)).toBeUndefined();
    expect(parsePrefer('wait')).toBe(60_000);
    expect(parsePrefer('wait=5')).toBe(5_000);
    expect(parsePrefer(' WAIT = 60 ')).toBe(60_000);
    for (const bad of ['wait=0', 'wait=61', 'wait=abc', 'respond-async', 'wait=5, x'])
      expect(refusal(() => parsePrefer(bad)).fields).toEqual(['Prefer']);
  });

  it('takes input, version, webhook and the events filter; every event by default', () => {
    expect(parseCreateBody({ input: { prompt: 'x' }, stream: true }, false)).toEqual({
      input: { prompt: 'x' },
      events: ['start', 'output', 'logs', 'completed'],
    });
    expect(
      parseCreateBody(
        {
          input: {},
          version: 'local~simulator~test',
          webhook: 'https://example.com/hook',
          webhook_events_filter: ['completed', 'completed', 'output'],
        },
        true,
      ),
    ).toEqual({
      input: {},
      version: 'local~simulator~test',
      webhook: 'https://example.com/hook',
      events: ['completed', 'output'],
    });
  });

  it('refuses a body without input, a missing version and an unknown event, naming the field', () => {
    expect(refusal(() => parseCreateBody([], false)).fields).toEqual(['input']);
    expect(refusal(() => parseCreateBody({ input: 'x' }, false)).fields).toEqual(['input']);
    expect(refusal(() => parseCreateBody({ input: {} }, true)).fields).toEqual(['version']);
    expect(refusal(() => parseCreateBody({ input: {}, webhook: 3 }, false)).fields).toEqual([
      'webhook',
    ]);
    expect(
      refusal(() => parseCreateBody({ input: {}, webhook_events_filter: ['finished'] }, false)),
    ).toEqual({
      message: 'webhook_events_filter must be a list of start, output, logs, completed',
      fields: ['webhook_events_filter'],
    });
  });

  it('carries the trail of page cursors, bounded, and refuses a cursor it did not write', () => {
    const trail = { pages: ['abc', 'def'], cut: false };
    expect(decodeListCursor(encodeListCursor(trail))).toEqual(trail);
    expect(previousTrail(undefined)).toBeNull();
    expect(previousTrail({ pages: ['abc'], cut: false })).toBe('first');
    expect(previousTrail(trail)).toEqual({ pages: ['abc'], cut: false });
    // However deep the pages go, a link carries at most MAX_TRAIL cursors.
    let deep = nextTrail(undefined, 'c0');
    for (let i = 1; i < 100; i++) deep = nextTrail(deep, `c${i}`);
    expect(deep.pages).toHaveLength(MAX_TRAIL);
    expect(deep).toMatchObject({ cut: true, pages: expect.arrayContaining(['c99', 'c80']) });
    expect(decodeListCursor(encodeListCursor(deep))).toEqual(deep);
    let back: ReturnType<typeof previousTrail> = deep;
    let steps = 0;
    while (back && back !== 'first') {
      back = previousTrail(back);
      steps++;
    }
    // Back as far as the kept trail reaches, then no previous (not a wrong "first page").
    expect([steps, back]).toEqual([MAX_TRAIL, null]);
    for (const bad of [
      'not base64 json',
      encodeListCursor({ pages: [], cut: false }),
      Buffer.from('{"p":["a"]}').toString('base64url'),
    ])
      expect(refusal(() => decodeListCursor(bad)).fields).toEqual(['cursor']);
  });
});
