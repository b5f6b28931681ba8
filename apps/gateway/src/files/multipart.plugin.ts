import multipart from '@fastify/multipart';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MEDIA_LIMITS } from '@genhub/storage';

/**
 * Multipart parsing for uploads. The per-format size limit is enforced by the
 * upload use-case while streaming; busboy's own limit sits one byte above the
 * largest format so it never fires first.
 */
export async function registerMultipart(app: NestFastifyApplication): Promise<void> {
  await app.register(multipart, {
    limits: {
      fileSize: Math.max(...Object.values(MEDIA_LIMITS)) + 1,
      files: 2,
      fields: 10,
      fieldSize: 64 * 1024,
      parts: 12,
    },
  });
}
