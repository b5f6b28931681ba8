/* Test stand-in for the gateway's exception filter (issue 3): AppException → v3 envelope. */
import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppException } from '@genhub/errors';
import { httpStatus } from '../filters/error-bodies.util';

@Catch()
export class V3TestFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (error instanceof AppException) {
      reply
        .code(httpStatus(error))
        .send({ code: httpStatus(error), message: error.message, data: null });
      return;
    }
    const status = (error as { statusCode?: number; status?: number }).statusCode ?? 500;
    reply.code(status).send({ code: status, message: (error as Error).message, data: null });
  }
}
