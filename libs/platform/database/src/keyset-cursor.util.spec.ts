import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor.util';

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
