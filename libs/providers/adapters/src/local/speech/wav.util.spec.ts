import { encodeWav, readWavInfo } from './wav.util';

describe('WAV files', () => {
  it('round-trips a PCM header and computes the duration', () => {
    const wav = encodeWav(new Int16Array(22_050), 22_050);
    expect(wav.length).toBe(44 + 44_100);
    expect(readWavInfo(wav)).toEqual({
      audioFormat: 1,
      channels: 1,
      sampleRate: 22_050,
      bitsPerSample: 16,
      dataBytes: 44_100,
      durationMs: 1000,
    });
  });

  it('skips chunks before the data and refuses what is not a WAV', () => {
    const wav = encodeWav(new Int16Array(10), 8000);
    const list = Buffer.concat([
      Buffer.from('LIST'),
      Buffer.from([3, 0, 0, 0]),
      Buffer.from('abc\0'),
    ]);
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    expect(readWavInfo(withList).dataBytes).toBe(20);
    expect(() => readWavInfo(Buffer.from('RIFF....WAVE'))).toThrow(/without a data chunk/);
    expect(() => readWavInfo(Buffer.from('hello'))).toThrow(/not a RIFF/);
  });
});
