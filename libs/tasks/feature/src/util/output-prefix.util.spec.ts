import { AppException } from '@genhub/errors';
import { outputKey, parseOutputPrefix } from './output-prefix.util';
import { ContentScreen } from './content-screen.util';
import { formatCreatedAt } from './task-views.util';

describe('parseOutputPrefix', () => {
  it('accepts folder segments', () => {
    expect(parseOutputPrefix(undefined)).toBeNull();
    expect(parseOutputPrefix('team-a/2026/v1.2_x')).toBe('team-a/2026/v1.2_x');
  });
  it.each([
    '',
    '..',
    'a/../b',
    './a',
    'a//b',
    '/abs',
    'a/',
    'a\\b',
    'a\nb',
    'a b',
    'a/%2e%2e',
    '.hidden',
    'x'.repeat(65),
    Array(9).fill('a').join('/'),
  ])('refuses %j', (raw) => {
    expect(() => parseOutputPrefix(raw)).toThrow(AppException);
  });
  it('builds output keys, naming re-runs apart', () => {
    expect(outputKey('a/b', 't', 0, 1, 'png')).toBe('outputs/a/b/t/0.png');
    expect(outputKey(null, 't', 2, 3, 'png')).toBe('outputs/t/2-r3.png');
  });
});

describe('ContentScreen', () => {
  const screen = new ContentScreen(['bad', 'very bad', 'c++']);
  it('matches whole words, case-insensitively', () => {
    expect(screen.blocks('this is BAD.')).toBe(true);
    expect(screen.blocks('badge')).toBe(false);
    expect(screen.blocks('so very  bad')).toBe(true);
    expect(screen.blocks('I like c++ a lot')).toBe(true);
    expect(screen.blocks(42)).toBe(false);
    expect(new ContentScreen([]).blocks('bad')).toBe(false);
  });
});

describe('formatCreatedAt', () => {
  it('is ISO 8601 without zone suffix', () => {
    expect(formatCreatedAt(new Date('2026-11-21T12:00:00.123Z'))).toBe('2026-11-21T12:00:00.123');
  });
});
