import type { TextToSpeechInputDto } from '@genhub/contracts/server';
import { onlyBytes, runContext } from '../test/run-context.util';
import { EspeakEngine } from './espeak-engine.adapter';
import type { SpeechEngine } from './speech-engine.types';
import { TextToSpeechAdapter } from './text-to-speech.adapter';
import { readWavInfo } from './wav.util';

const SHORT = 'The quick brown fox jumps over the lazy dog.';
const LONG = `${SHORT} ${SHORT} ${SHORT} ${SHORT}`;

const failingEngine: SpeechEngine = {
  synthesize: async () => {
    throw new Error('engine missing');
  },
};

const speak = (
  adapter: TextToSpeechAdapter,
  input: Partial<TextToSpeechInputDto>,
  signal?: AbortSignal,
) => adapter.run(runContext({ text: SHORT, ...input } as TextToSpeechInputDto, { signal }));

describe('TextToSpeechAdapter with eSpeak-NG', () => {
  const adapter = new TextToSpeechAdapter();

  it('answers a real PCM WAV whose length follows the text', async () => {
    const short = onlyBytes(await speak(adapter, {}));
    expect(short).toMatchObject({ contentType: 'audio/wav', extension: 'wav' });
    const info = readWavInfo(short.data);
    expect(info).toMatchObject({
      audioFormat: 1,
      channels: 1,
      sampleRate: 22_050,
      bitsPerSample: 16,
    });
    // Nine words at 175 words per minute: about three seconds of speech.
    expect(info.durationMs).toBeGreaterThan(1500);
    expect(info.durationMs).toBeLessThan(6000);
    const long = readWavInfo(onlyBytes(await speak(adapter, { text: LONG })).data);
    expect(long.durationMs / info.durationMs).toBeGreaterThan(3);
    expect(long.durationMs / info.durationMs).toBeLessThan(5);
  }, 30_000);

  it('speaks faster at a higher speed and in the chosen voice', async () => {
    const normal = readWavInfo(onlyBytes(await speak(adapter, {})).data).durationMs;
    const fast = readWavInfo(onlyBytes(await speak(adapter, { speed: 350 })).data).durationMs;
    expect(fast).toBeLessThan(normal * 0.7);
    const french = onlyBytes(await speak(adapter, { voice: 'fr' })).data;
    expect(french.equals(onlyBytes(await speak(adapter, {})).data)).toBe(false);
  }, 30_000);

  it('is deterministic for a seed; another seed changes the pitch', async () => {
    const a = onlyBytes(await speak(adapter, { seed: 1 })).data;
    expect(onlyBytes(await speak(adapter, { seed: 1 })).data.equals(a)).toBe(true);
    expect(onlyBytes(await speak(adapter, { seed: 2 })).data.equals(a)).toBe(false);
  }, 30_000);

  it('reads text starting with a dash as text, not as an engine option', async () => {
    // As an option, "-v xx" would select a missing voice and the engine would exit.
    const wav = await new EspeakEngine().synthesize(
      '-v xx hello',
      { voice: 'en', speed: 175, pitch: 50 },
      new AbortController().signal,
    );
    expect(readWavInfo(wav).durationMs).toBeGreaterThan(500);
  }, 30_000);

  it('survives an engine failure inside its worker (eSpeak calls exit): the process lives on', async () => {
    await expect(
      new EspeakEngine().synthesize(
        'x',
        { voice: 'zz' as 'en', speed: 175, pitch: 50 },
        new AbortController().signal,
      ),
    ).rejects.toThrow(/eSpeak exited with 1/);
    expect(process.listenerCount('unhandledRejection')).toBe(0);
  }, 30_000);

  it('contains a text that overflows the engine (a known eSpeak NG bug): tones answer, the process lives on', async () => {
    // text2wav's 2018 build of eSpeak NG still has the stack overflow of a word stacking
    // many `'s` suffixes (fixed upstream in 2026); inside WebAssembly it is a trap in the
    // synthesis worker, never the app's memory (docs/dependencies.md, "text2wav").
    const text = "s'".repeat(220);
    await expect(
      new EspeakEngine().synthesize(
        text,
        { voice: 'en', speed: 175, pitch: 50 },
        new AbortController().signal,
      ),
    ).rejects.toThrow(/eSpeak exited/);
    const wav = onlyBytes(await speak(adapter, { text }));
    expect(readWavInfo(wav.data).durationMs).toBeGreaterThan(1000);
    expect(process.listenerCount('uncaughtException')).toBe(0);
  }, 30_000);

  it('stops when the signal fires', async () => {
    const controller = new AbortController();
    const run = speak(adapter, { text: LONG.repeat(20) }, controller.signal);
    setTimeout(() => controller.abort(new Error('deleted')), 20);
    await expect(run).rejects.toThrow('deleted');
  }, 30_000);
});

describe('TextToSpeechAdapter fallback when the engine fails', () => {
  const adapter = new TextToSpeechAdapter(failingEngine);

  it('answers an audible tone sequence as a valid WAV, proportional to the text', async () => {
    const short = onlyBytes(await speak(adapter, {}));
    expect(short.contentType).toBe('audio/wav');
    const info = readWavInfo(short.data);
    expect(info).toMatchObject({
      audioFormat: 1,
      channels: 1,
      sampleRate: 22_050,
      bitsPerSample: 16,
    });
    expect(info.durationMs).toBeGreaterThan(1500);
    const samples = new Int16Array(short.data.buffer.slice(short.data.byteOffset + 44));
    expect(Math.max(...samples)).toBeGreaterThan(10_000);
    const long = readWavInfo(onlyBytes(await speak(adapter, { text: LONG })).data);
    expect(long.durationMs / info.durationMs).toBeCloseTo(4, 0);
  });

  it('is deterministic for a seed and text', async () => {
    const a = onlyBytes(await speak(adapter, { seed: 3 })).data;
    expect(onlyBytes(await speak(adapter, { seed: 3 })).data.equals(a)).toBe(true);
    expect(onlyBytes(await speak(adapter, { seed: 4 })).data.equals(a)).toBe(false);
    expect(onlyBytes(await speak(adapter, { seed: 3, text: 'other' })).data.equals(a)).toBe(false);
  });

  it('is used when the engine answers something that is not a WAV', async () => {
    const garbage = new TextToSpeechAdapter({ synthesize: async () => Buffer.from('not audio') });
    const info = readWavInfo(onlyBytes(await speak(garbage, {})).data);
    expect(info.durationMs).toBeGreaterThan(1500);
  });
});
