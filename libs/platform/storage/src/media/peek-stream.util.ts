import { Readable } from 'node:stream';

/**
 * Reads up to `bytes` leading bytes of a stream without consuming them: the
 * returned stream yields the whole content again (head included). A source
 * shorter than `bytes` is returned whole in `head`.
 */
export function peekStream(
  source: Readable,
  bytes: number,
): Promise<{ head: Buffer; stream: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const cleanup = () => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onEnd = () => {
      cleanup();
      const head = Buffer.concat(chunks);
      resolve({ head, stream: Readable.from(head.length ? [head] : []) });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < bytes && (chunk = source.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= bytes) {
        cleanup();
        const head = Buffer.concat(chunks);
        source.unshift(head);
        resolve({ head: head.subarray(0, bytes), stream: source });
      }
    };
    source.on('readable', onReadable);
    source.on('end', onEnd);
    source.on('error', onError);
  });
}
