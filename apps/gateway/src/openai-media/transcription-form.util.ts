import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppErrorCode, AppException } from '@genhub/errors';

/** OpenAI's limit for a transcription's file, kept so a client behaves as it does there. */
export const MAX_TRANSCRIPTION_BYTES = 25 * 1024 * 1024;

/** A transcription request's form: its one `file` and its fields. */
export interface TranscriptionForm {
  file: Buffer;
  fields: Map<string, string>;
}

function invalid(message: string, param = 'file'): AppException {
  return new AppException(AppErrorCode.InvalidRequest, { message, param });
}

/**
 * Reads the multipart form whole: the SDK may send `file` before `model`, and the model is
 * checked before anything is stored. The file is held in memory, at most 25 MB.
 */
export async function readTranscriptionForm(request: FastifyRequest): Promise<TranscriptionForm> {
  if (!request.isMultipart())
    throw invalid(
      "Invalid request: send multipart/form-data with the audio in a part named 'file'",
    );
  const fields = new Map<string, string>();
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields.set(part.fieldname, String(part.value));
        continue;
      }
      if (part.fieldname !== 'file' || file)
        throw invalid(`Invalid request: one file part, named 'file', is expected`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_TRANSCRIPTION_BYTES)
          throw new AppException(AppErrorCode.PayloadTooLarge, {
            message: 'File too large: a transcription takes at most 25 MB',
            param: 'file',
          });
        chunks.push(chunk);
      }
      file = Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof AppException) throw error;
    // busboy refusing the body (no boundary, truncated data, too many parts): the client's fault.
    throw invalid(`Invalid request: malformed multipart body: ${(error as Error).message}`);
  }
  if (!file?.length)
    throw invalid("Invalid request: the audio must be sent in a part named 'file'");
  return { file, fields };
}
