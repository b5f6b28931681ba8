import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ReadinessRegistry } from './readiness-registry.service';

// Not public interface: kept out of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  /** Liveness: the event loop answers. */
  @Get('health')
  @HttpCode(200)
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: every connection this app depends on works. */
  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const { ok, checks } = await this.readiness.run();
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
