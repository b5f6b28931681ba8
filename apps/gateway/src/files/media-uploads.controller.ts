import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import {
  ApiKeyGuard,
  AuthenticatedAccount,
  CurrentAccount,
  RequiresScope,
} from '@genhub/accounts-feature';
import {
  type ApiEnvelopeDto,
  envelope,
  MediaUploadRequestDto,
  type MediaUploadTicketDto,
  MediaUploadTicketResponseDto,
  type UploadAnswerDto,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode } from '@genhub/errors';
import { IssueUploadTicketUseCase, ReceiveDirectUploadUseCase } from '@genhub/storage';
import { PublicLinks } from '../transport/public-links.service';

/**
 * Direct uploads (decision 0111): a ticket first, then one `PUT` of the raw
 * bytes to the signed URL it gives — straight to the bucket with S3, or back
 * to the gateway's signed route on local disk. The WaveSpeed SDK's `upload`
 * speaks exactly this.
 */
@Controller('api/v3/media/uploads')
export class MediaUploadsController {
  constructor(
    private readonly tickets: IssueUploadTicketUseCase,
    private readonly receive: ReceiveDirectUploadUseCase,
    private readonly links: PublicLinks,
  ) {}

  @Post()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @RequiresScope('files:write')
  @V3Route({
    operationId: 'createMediaUpload',
    tag: 'Files',
    summary: 'Get a direct-upload URL',
    description:
      'Declare the file (name, exact size, type); the answer is a signed, single-use `PUT` URL valid 15 minutes and the `download_url` the file will have. PUT the raw bytes there with the given headers. The file is checked like any upload (its first bytes must be the declared format, within the format’s limit) before it can be used; a file that fails is removed, its URL answers 404 and a task using it fails with 1402. The ticket counts against the account’s upload quotas from now on, at the declared size (413 when its stored bytes would pass the quota, 429 past its uploads per UTC day). Only one PUT takes a ticket: another gets 409.',
    ok: { description: 'The ticket.', type: MediaUploadTicketResponseDto },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.PayloadTooLarge,
      AppErrorCode.UploadQuotaExceeded,
      AppErrorCode.UploadDailyLimitReached,
    ],
  })
  async create(
    @CurrentAccount() account: AuthenticatedAccount,
    @Body() body: MediaUploadRequestDto,
    @Req() request: FastifyRequest,
  ): Promise<ApiEnvelopeDto<MediaUploadTicketDto>> {
    return envelope(
      await this.tickets.execute({
        accountId: account.id,
        filename: body.filename,
        size: body.size,
        contentType: body.content_type,
        gatewayOrigin: this.links.origin(request),
      }),
    );
  }

  /** The signed URL of a local-disk ticket: opaque to clients, so not in the document. */
  @Put(':id')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async put(
    @Param('id') id: string,
    @Query('ticket') ticket: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('content-length') contentLength: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<ApiEnvelopeDto<UploadAnswerDto>> {
    return envelope(
      await this.receive.execute({
        id,
        token: typeof ticket === 'string' ? ticket : '',
        contentType,
        contentLength: contentLength === undefined ? undefined : Number(contentLength),
        body: request.raw,
      }),
    );
  }
}
