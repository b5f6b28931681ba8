/** What a WAV file's header says. */
export interface WavInfo {
  /** 1 = integer PCM. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes of sample data (the `data` chunk). */
  dataBytes: number;
  durationMs: number;
}

/** A mono 16-bit PCM WAV file of `samples`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  const data = Buffer.alloc(dataBytes);
  for (let i = 0; i < samples.length; i++) data.writeInt16LE(samples[i], i * 2);
  return Buffer.concat([header, data]);
}

/** Reads a RIFF/WAVE header, walking its chunks; throws when the bytes are not a WAV file. */
export function readWavInfo(wav: Buffer): WavInfo {
  if (
    wav.length < 12 ||
    wav.toString('ascii', 0, 4) !== 'RIFF' ||
    wav.toString('ascii', 8, 12) !== 'WAVE'
  )
    throw new Error('not a RIFF/WAVE file');
  let format: Omit<WavInfo, 'dataBytes' | 'durationMs'> | undefined;
  for (let offset = 12; offset + 8 <= wav.length;) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= wav.length) {
      format = {
        audioFormat: wav.readUInt16LE(body),
        channels: wav.readUInt16LE(body + 2),
        sampleRate: wav.readUInt32LE(body + 4),
        bitsPerSample: wav.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format || !format.channels || !format.sampleRate || !format.bitsPerSample)
        throw new Error('WAV data chunk before a valid fmt chunk');
      const dataBytes = Math.min(size, wav.length - body);
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, dataBytes, durationMs: (dataBytes / bytesPerSecond) * 1000 };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
}
