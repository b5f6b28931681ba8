import {
  decodeCountKeysetCursor,
  decodeKeysetCursor,
  encodeCountKeysetCursor,
  encodeKeysetCursor,
} from './keyset-cursor.util';

const position = {
  createdAt: '2026-11-26T01:02:03.456789Z',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
};

describe('keyset cursors', () => {
  it('round-trips a position through an opaque URL-safe cursor', () => {
    const cursor = encodeKeysetCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(cursor)).toEqual(position);
  });

  it('names no position for anything it did not make', () => {
    const made = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      '',
      'not a cursor',
      made(`2026-11-26T01:02:03.456Z|${position.id}`), // milliseconds only
      made(`${position.createdAt}|not-a-uuid`),
      made(`${position.createdAt}|${position.id}|more`),
    ])
      expect(decodeKeysetCursor(cursor)).toBeUndefined();
  });
});

describe('count keyset cursors', () => {
  const counted = { count: 1234, id: '0f8fad5b-d9cb-469f-a165-70867728950e' };

  it('round-trips a position through an opaque URL-safe cursor', () => {
    const cursor = encodeCountKeysetCursor(counted);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCountKeysetCursor(cursor)).toEqual(counted);
    expect(decodeCountKeysetCursor(encodeCountKeysetCursor({ ...counted, count: 0 }))).toEqual({
      ...counted,
      count: 0,
    });
  });

  it('names no position for anything it did not make, a time-ordered cursor included', () => {
    const made = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      '',
      'not a cursor',
      encodeKeysetCursor(position),
      made(`1234|${counted.id}`), // no kind
      made(`c.-1|${counted.id}`),
      made(`c.012|${counted.id}`),
      made(`c.1.5|${counted.id}`),
      made(`c.9999999999999999|${counted.id}`), // past a safe integer
      made(`c.12|not-a-uuid`),
      made(`c.12|${counted.id}|more`),
    ])
      expect(decodeCountKeysetCursor(cursor)).toBeUndefined();
    expect(decodeKeysetCursor(encodeCountKeysetCursor(counted))).toBeUndefined();
  });
});
