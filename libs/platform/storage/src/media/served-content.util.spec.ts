import {
  extensionForType,
  inlineContentType,
  recogniseContent,
  storedContentType,
} from './served-content.util';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const OGG = Buffer.concat([Buffer.from('OggS\0\x02', 'latin1'), Buffer.alloc(30)]);
const AAC = Buffer.concat([
  Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x00, 0x1f, 0xfc]),
  Buffer.alloc(30),
]);

describe('what a stored file is served as', () => {
  it('recognises media formats, UTF-8 text, and nothing else, from the bytes alone', () => {
    expect(recogniseContent(PNG)).toEqual({ contentType: 'image/png', extension: 'png' });
    expect(recogniseContent(OGG)).toEqual({ contentType: 'audio/ogg', extension: 'ogg' });
    expect(recogniseContent(AAC)).toEqual({ contentType: 'audio/aac', extension: 'aac' });
    for (const text of ['<!doctype html><script>alert(1)</script>', '<svg onload=x/>', 'héllo', ''])
      expect(recogniseContent(Buffer.from(text))).toEqual({
        contentType: 'text/plain; charset=utf-8',
        extension: 'txt',
      });
    expect(recogniseContent(Buffer.from('%PDF-1.7\n\0binary'))).toEqual({
      contentType: 'application/octet-stream',
      extension: 'bin',
    });
    expect(recogniseContent(Buffer.from([0xc3, 0x28, 0x41]))).toEqual({
      contentType: 'application/octet-stream',
      extension: 'bin',
    });
  });

  it('serves inline only the recognised types and plain text', () => {
    expect(inlineContentType('image/png')).toBe('image/png');
    expect(inlineContentType('Video/MP4; codecs=avc1')).toBe('video/mp4');
    expect(inlineContentType('text/plain; charset=iso-8859-1')).toBe('text/plain; charset=utf-8');
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/pdf',
      'application/json',
      'text/javascript',
      'text/css',
      'multipart/x-mixed-replace',
      '',
    ])
      expect({ type, inline: inlineContentType(type) }).toEqual({ type, inline: undefined });
    expect(storedContentType('text/html')).toBe('application/octet-stream');
  });

  it('names a file after its type; text keeps a plain-text extension it asks for', () => {
    expect(extensionForType('image/jpeg')).toBe('jpg');
    expect(extensionForType('audio/ogg')).toBe('ogg');
    expect(extensionForType('text/plain; charset=utf-8', 'SRT')).toBe('srt');
    expect(extensionForType('text/plain; charset=utf-8', 'html')).toBe('txt');
    expect(extensionForType('application/octet-stream', 'html')).toBe('bin');
  });
});
