import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MetricsService } from './metrics.service';
import { MetricsTokenGuard } from './metrics-token.guard';

// Not public interface: kept out of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @UseGuards(MetricsTokenGuard)
  async scrape(@Res() reply: FastifyReply): Promise<void> {
    const body = await this.metrics.registry.metrics();
    await reply.header('content-type', this.metrics.registry.contentType).send(body);
  }
}
