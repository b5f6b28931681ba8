import { ArgumentsHost, Catch, ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpConfig } from '@genhub/config';
import { AppErrorCode, AppException } from '@genhub/errors';
import { withoutUrlSecrets } from '@genhub/observability';
import { errorBody, httpStatus } from './error-bodies.util';
import { responseFamily } from './response-family.util';
import { toAppException } from './to-app-exception.util';

/**
 * The gateway's one error mechanism: every failure — a domain AppException,
 * a validation refusal, a Fastify body-parser error, an unknown route, a bug —
 * goes through here and leaves in the shape of its route family.
 */
@Catch()
@Injectable()
export class GatewayExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('GatewayExceptionFilter');

  constructor(private readonly http: HttpConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.respond(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  respond(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    let error = toAppException(exception, this.http.BODY_LIMIT_BYTES);
    if (!error) {
      this.logger.error(
        {
          err: exception,
          request_id: request.id,
          method: request.method,
          // As the request line writes it: no event-stream token or upload ticket (decision 0128).
          url: withoutUrlSecrets(request.url),
        },
        `unexpected error (request ${request.id})`,
      );
      error = new AppException(AppErrorCode.Internal);
    }
    if (reply.sent) return;
    const family = responseFamily(request.url);
    void reply
      .status(httpStatus(error, family))
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorBody(family, error));
  }
}
