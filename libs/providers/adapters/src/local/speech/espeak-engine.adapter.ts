import { Worker } from 'node:worker_threads';
import type { SpeechEngine, SpeechOptions } from './speech-engine.types';

/*
 * text2wav's Emscripten glue is unsafe in a server process: each call adds
 * process-wide `uncaughtException`/`unhandledRejection` handlers (the latter
 * aborts), and an engine error calls `process.exit`. So every synthesis runs
 * in its own worker thread, where those reach only the worker.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const text2wav = require(workerData.modulePath);
text2wav(workerData.text, workerData.options).then((wav) => parentPort.postMessage(wav, [wav.buffer]));
`;

/** Real offline speech: eSpeak-NG compiled to WebAssembly (text2wav), 22.05 kHz mono 16-bit WAV. */
export class EspeakEngine implements SpeechEngine {
  private readonly modulePath = require.resolve('text2wav');

  synthesize(text: string, options: SpeechOptions, signal: AbortSignal): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        // text2wav passes options as command-line arguments: numbers must be strings.
        workerData: {
          modulePath: this.modulePath,
          // text2wav hands the text to eSpeak's argument parser: a leading '-' would read as an option.
          text: ` ${text}`,
          options: {
            voice: options.voice,
            speed: String(options.speed),
            pitch: String(options.pitch),
          },
        },
        // Keeps the engine's chatter ("wasm streaming compile failed …") off our logs, for the error.
        stdout: true,
        stderr: true,
      });
      let output = '';
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-500));
      worker.stdout.on('data', keep);
      worker.stderr.on('data', keep);
      const settle = (done: () => void) => {
        signal.removeEventListener('abort', onAbort);
        void worker.terminate();
        done();
      };
      const onAbort = () => settle(() => reject(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (wav: Uint8Array) =>
        settle(() => resolve(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength))),
      );
      worker.once('error', (error) => settle(() => reject(error)));
      worker.once('exit', (code) =>
        settle(() => reject(new Error(`eSpeak exited with ${code}: ${output.trim()}`))),
      );
    });
  }
}
