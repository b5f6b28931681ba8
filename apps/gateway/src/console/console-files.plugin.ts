import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConsoleConfig } from '@genhub/config';

/**
 * The web console (apps/console) as static files at /console/, when
 * CONSOLE_DIR names its build (`npm start` does).
 */
export async function registerConsoleFiles(app: NestFastifyApplication): Promise<void> {
  const { CONSOLE_DIR } = app.get(ConsoleConfig);
  if (!CONSOLE_DIR) return;
  // ConsoleConfig has checked that the directory holds the build.
  const root = path.resolve(CONSOLE_DIR);
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/console/',
    decorateReply: false,
    // Hashed asset names: cache them; index.html always fresh.
    setHeaders: (reply, file) => {
      void reply.header(
        'cache-control',
        file.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  fastify.get('/console', (_request, reply) => reply.redirect('/console/', 301));
}
