import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AdminConfig, StaticToken } from '@genhub/config';
import { INVALID_ADMIN_TOKEN_MESSAGE } from '@genhub/errors';
import { QueueName } from '@genhub/queue';

export const QUEUE_BOARD_PATH = '/admin/queues';
/** A browser cannot send a Bearer header while navigating: it may carry the token in this cookie. */
export const QUEUE_BOARD_COOKIE = 'genhub_admin_token';

function presentedToken(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1];
  if (bearer) return bearer;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === QUEUE_BOARD_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * bull-board at /admin/queues: every queue read-only, behind ADMIN_TOKEN
 * (Bearer header, or the genhub_admin_token cookie for a browser). Anything
 * but GET/HEAD is refused before bull-board sees it. Without ADMIN_TOKEN the
 * board is not mounted at all, so the path is a 404 like the rest of /admin.
 */
export async function registerQueueBoard(app: NestFastifyApplication): Promise<void> {
  const token = app.get(AdminConfig).ADMIN_TOKEN;
  if (!token) return;
  const expected = new StaticToken(token);

  const serverAdapter = new BullBoardFastifyAdapter();
  createBullBoard({
    queues: Object.values(QueueName).map(
      (name) =>
        new BullMQAdapter(app.get<Queue>(getQueueToken(name), { strict: false }), {
          readOnlyMode: true,
        }),
    ),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'genhub queues' } },
  });
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);

  const board = serverAdapter.registerPlugin();
  await app.register(
    async (scope: FastifyInstance) => {
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        const given = presentedToken(request);
        if (!expected.matches(given)) {
          await reply
            .status(401)
            .header('www-authenticate', 'Bearer')
            .send({ code: 401, error: INVALID_ADMIN_TOKEN_MESSAGE });
          return reply;
        }
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          await reply
            .status(405)
            .header('allow', 'GET, HEAD')
            .send({ code: 405, error: 'The queue board is read-only' });
          return reply;
        }
        return undefined;
      });
      await scope.register(board);
    },
    { prefix: QUEUE_BOARD_PATH },
  );
}
