import type { TextToImageInputDto } from '@genhub/contracts/server';
import { AdapterResult, ModelAdapter, RunContext } from '../../contract/model-adapter.types';
import { AbstractImageGenerator } from './abstract-image.generator';
import { frameSize } from './frame-size.util';

/** `local/image/text-to-image`: num_outputs seeded abstract drawings at aspect_ratio × resolution. */
export class TextToImageAdapter implements ModelAdapter<TextToImageInputDto> {
  constructor(private readonly images = new AbstractImageGenerator()) {}

  async run(context: RunContext<TextToImageInputDto>): Promise<AdapterResult> {
    const { input, signal } = context;
    const size = frameSize(input.aspect_ratio ?? '1:1', Number(input.resolution ?? '1024'));
    const count = input.num_outputs ?? 1;
    const outputs: AdapterResult['outputs'] = [];
    for (let index = 0; index < count; index++) {
      if (signal.aborted) throw signal.reason;
      const image = await this.images.render(
        {
          prompt: input.prompt,
          negativePrompt: input.negative_prompt,
          seed: input.seed ?? 0,
          index,
        },
        size,
        input.output_format ?? 'png',
      );
      outputs.push({ kind: 'bytes', ...image });
      context.progress?.((index + 1) / count);
    }
    return { outputs };
  }
}
