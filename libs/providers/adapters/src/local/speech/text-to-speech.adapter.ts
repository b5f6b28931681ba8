import { Logger } from '@nestjs/common';
import type { TextToSpeechInputDto } from '@genhub/contracts/server';
import { AdapterResult, ModelAdapter, RunContext } from '../../contract/model-adapter.types';
import { SeededRandom, seedFrom } from '../seeded-random.util';
import { EspeakEngine } from './espeak-engine.adapter';
import type { SpeechEngine } from './speech-engine.types';
import { renderToneSequence } from './tone-sequence.util';
import { readWavInfo } from './wav.util';

const DEFAULT_SPEED_WPM = 175;

/**
 * `local/speech/text-to-speech`: eSpeak-NG speech as WAV; the seed picks the
 * pitch. When the engine fails, a tone sequence derived from the text stands
 * in, so the model still answers with audible, text-shaped audio.
 */
export class TextToSpeechAdapter implements ModelAdapter<TextToSpeechInputDto> {
  private readonly logger = new Logger(TextToSpeechAdapter.name);

  constructor(private readonly engine: SpeechEngine = new EspeakEngine()) {}

  async run(context: RunContext<TextToSpeechInputDto>): Promise<AdapterResult> {
    const { input, signal } = context;
    const seed = input.seed ?? 0;
    const speed = input.speed ?? DEFAULT_SPEED_WPM;
    const pitch = new SeededRandom(seedFrom(seed, 'pitch')).int(30, 70);
    let wav: Buffer;
    try {
      wav = await this.engine.synthesize(
        input.text,
        { voice: input.voice ?? 'en', speed, pitch },
        signal,
      );
      if (readWavInfo(wav).dataBytes === 0) throw new Error('the engine produced no audio');
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      this.logger.warn(`speech engine failed (${(error as Error).message}); answering with tones`);
      wav = renderToneSequence(input.text, speed, seed);
    }
    context.progress?.(1);
    return { outputs: [{ kind: 'bytes', data: wav, contentType: 'audio/wav', extension: 'wav' }] };
  }
}
