import { SeededRandom, seedFrom } from '../seeded-random.util';
import { encodeWav } from './wav.util';

export const TONE_SAMPLE_RATE = 22_050;
/** A major pentatonic scale over two octaves, in semitones above the base note. */
const SCALE = [0, 2, 4, 7, 9, 12, 14, 16, 19, 21];
const FADE_MS = 6;

/**
 * The fallback when no speech engine works: an audible signal derived from the
 * text. Each letter or digit is a short tone (its pitch from the character),
 * spaces are short rests and punctuation longer ones, paced like speech at
 * `speed` words per minute; the seed picks the base note.
 */
export function renderToneSequence(text: string, speed: number, seed: number): Buffer {
  const random = new SeededRandom(seedFrom(seed, 'tones'));
  const baseHz = random.between(180, 320);
  // ~5 characters per word, plus the space.
  const charMs = 60_000 / (speed * 6);
  const samplesOf = (ms: number) => Math.round((ms / 1000) * TONE_SAMPLE_RATE);
  const chunks: Int16Array[] = [];
  for (const char of text) {
    if (/[\p{L}\p{N}]/u.test(char)) {
      const step = SCALE[(char.toLowerCase().codePointAt(0) ?? 0) % SCALE.length];
      chunks.push(tone(baseHz * 2 ** (step / 12), samplesOf(charMs)));
    } else if (/[.,;:!?]/.test(char)) chunks.push(new Int16Array(samplesOf(charMs * 4)));
    else chunks.push(new Int16Array(samplesOf(charMs)));
  }
  const samples = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    samples.set(chunk, offset);
    offset += chunk.length;
  }
  return encodeWav(samples, TONE_SAMPLE_RATE);
}

/** A sine tone at 40 % of full scale with short fades (no clicks). */
function tone(hz: number, length: number): Int16Array {
  const samples = new Int16Array(length);
  const fade = Math.min(Math.round((FADE_MS / 1000) * TONE_SAMPLE_RATE), Math.floor(length / 2));
  for (let i = 0; i < length; i++) {
    const envelope = Math.min(1, i / fade, (length - 1 - i) / fade);
    samples[i] = Math.round(
      0.4 * 32767 * envelope * Math.sin((2 * Math.PI * hz * i) / TONE_SAMPLE_RATE),
    );
  }
  return samples;
}
