import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AdapterOutput } from '@genhub/providers';
import { OBJECT_STORAGE, ObjectStorage, extensionForType, recogniseContent } from '@genhub/storage';
import type { StoredTask } from '@genhub/tasks-data-access';
import { outputKey } from '@genhub/tasks-feature';
import { MEDIA_FETCHER, MediaFetcher } from './media-fetcher.port';
import { outputNameExtension } from './run-task.util';

/** Where a run's outputs go: stored under the task's output prefix, or removed when the run lost. */
@Injectable()
export class RunOutputs {
  private readonly logger = new Logger(RunOutputs.name);

  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(MEDIA_FETCHER) private readonly media: MediaFetcher,
  ) {}

  /**
   * Stores a file output (a text output is its own value) and adds its key to
   * `keys`. Its type comes from its bytes (a media format, plain text, else a
   * download), never from what the adapter, the upstream or a `data:` URL
   * declared: `/cdn` serves HTML on the console's origin otherwise (decision
   * 0128). Its name carries the run's attempt.
   */
  async store(
    task: StoredTask,
    index: number,
    output: AdapterOutput,
    keys: string[],
  ): Promise<string> {
    if (output.kind === 'text') return output.text;
    const { data, contentType } =
      output.kind === 'bytes'
        ? { data: output.data, contentType: recogniseContent(output.data).contentType }
        : await this.media.download(output.url);
    const extension = extensionForType(contentType, outputNameExtension(output));
    const key = outputKey(task.outputPrefix, task.id, index, task.attempt, extension);
    keys.push(key);
    await this.storage.put(key, data, { contentType });
    return this.storage.urlFor(key);
  }

  /** Removes the outputs of a run that lost (superseded or deleted); a failure is only logged. */
  async discard(keys: string[]): Promise<void> {
    if (!keys.length) return;
    await this.storage
      .delete(keys)
      .catch((e: Error) => this.logger.warn(`cannot delete superseded outputs: ${e.message}`));
  }
}
