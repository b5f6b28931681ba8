import { AdapterError, AdapterOutput } from '../../contract/model-adapter.types';
import { TaskCode } from '@genhub/errors';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/flac': 'flac',
  'audio/ogg': 'ogg',
  'audio/aac': 'aac',
  'audio/opus': 'opus',
  'video/mp4': 'mp4',
};

/** Bytes with their type; the extension follows the type. */
export function bytesOutput(data: Buffer, contentType: string): AdapterOutput {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return { kind: 'bytes', data, contentType: type, extension: EXTENSIONS[type] ?? 'bin' };
}

/** An output URL: `data:` URLs are decoded, http(s) URLs are left for the worker to download. */
export function urlOutput(url: string): AdapterOutput {
  const data = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (data) return bytesOutput(Buffer.from(data[3], data[2] ? 'base64' : 'utf8'), data[1]);
  if (!/^https?:\/\//.test(url))
    throw new AdapterError(
      TaskCode.ServiceUnavailable,
      'upstream answered an output that is not a URL',
    );
  return { kind: 'url', url };
}

/** Every output must be there: an empty success is an upstream fault, not a result to charge. */
export function nonEmpty(outputs: AdapterOutput[]): AdapterOutput[] {
  if (!outputs.length)
    throw new AdapterError(TaskCode.ServiceUnavailable, 'upstream answered no output');
  return outputs;
}
