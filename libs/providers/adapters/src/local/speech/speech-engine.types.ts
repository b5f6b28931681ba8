import type { SpeechVoice } from '@genhub/contracts/server';

export interface SpeechOptions {
  voice: SpeechVoice;
  /** Words per minute. */
  speed: number;
  /** eSpeak pitch, 0..99. */
  pitch: number;
}

/** Turns text into a WAV file. */
export interface SpeechEngine {
  synthesize(text: string, options: SpeechOptions, signal: AbortSignal): Promise<Buffer>;
}
