import type { GenhubClient } from './genhub.client';
import { GenhubRequestError } from './genhub.client';
import type { RequestOptions } from './task-events.client';

export interface UploadMediaOptions extends RequestOptions {
  /** The fetch that sends the bytes (default: the global `fetch`). */
  fetch?: typeof fetch;
}

/** A file to upload: a browser `File`, or any `Blob` with the name given. */
export type MediaFile = Blob & { name?: string };

/**
 * Uploads a file for use as a model input and resolves with its address
 * (`download_url`): asks for a direct-upload ticket (`POST /api/v3/media/uploads`
 * with the exact name, size and type), then PUTs the bytes straight to the
 * storage with the ticket's headers. The file is checked on its first use as
 * an input. Refusals of either step throw `GenhubRequestError`.
 *
 * ```ts
 * const imageUrl = await uploadMedia(client, fileInput.files[0]);
 * await client.POST('/v1/local/simulator/test', { body: { prompt: 'a cat', image_url: imageUrl } });
 * ```
 */
export async function uploadMedia(
  client: GenhubClient,
  file: MediaFile,
  options: UploadMediaOptions = {},
): Promise<string> {
  const { signal, fetch: send = fetch } = options;
  const { data, error, response } = await client.POST('/api/v3/media/uploads', {
    body: {
      filename: file.name || 'upload',
      size: file.size,
      ...(file.type ? { content_type: file.type } : {}),
    },
    signal,
  });
  if (error !== undefined || !data) throw new GenhubRequestError(response.status, error);
  const { upload, download_url } = data.data;
  const put = await send(upload.url, {
    method: upload.method,
    headers: upload.headers,
    body: file,
    signal,
  });
  if (!put.ok) {
    const text = await put.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // storage answers (S3) are XML: kept as text
    }
    throw new GenhubRequestError(put.status, body);
  }
  return download_url;
}
