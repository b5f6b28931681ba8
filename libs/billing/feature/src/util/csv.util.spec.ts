import { csvField, csvRow } from './csv.util';

describe('csv (RFC 4180)', () => {
  it('leaves plain fields alone and quotes the rest', () => {
    expect(csvField('local/simulator/test')).toBe('local/simulator/test');
    expect(csvField(-0.001)).toBe('-0.001');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('ends records with CRLF', () => {
    expect(csvRow(['id', 'a"b', 3])).toBe('id,"a""b",3\r\n');
  });
});
