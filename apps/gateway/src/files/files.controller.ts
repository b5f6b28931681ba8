import '@fastify/multipart';
import { Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
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
  type UploadAnswerDto,
  UploadFileBodyDto,
  UploadResponseDto,
  V3Route,
} from '@genhub/contracts/server';
import { AppErrorCode, AppException } from '@genhub/errors';
import {
  NOT_MULTIPART_MESSAGE,
  SEVERAL_FILES_MESSAGE,
  UPLOAD_FIELD,
  UploadFileUseCase,
  UploadPart,
} from '@genhub/storage';

/** `POST /api/v3/files/upload`: one multipart part named `file`, streamed to storage. */
@Controller('api/v3/files')
@UseGuards(ApiKeyGuard)
@RequiresScope('files:write')
export class FilesController {
  constructor(private readonly uploadFile: UploadFileUseCase) {}

  @Post('upload')
  @HttpCode(200)
  @V3Route({
    operationId: 'uploadFile',
    tag: 'Files',
    summary: 'Upload a file for use as a model input',
    description:
      'Multipart form data with one file part named `file`. Files are kept 7 days. Uploads count against the account’s quotas: the bytes its unexpired uploads hold (413 beyond) and the uploads it makes per UTC day (429 beyond).',
    ok: { description: 'The file URL.', type: UploadResponseDto },
    errors: [
      AppErrorCode.InvalidRequest,
      AppErrorCode.PayloadTooLarge,
      AppErrorCode.UploadQuotaExceeded,
      AppErrorCode.UploadDailyLimitReached,
    ],
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ required: true, type: UploadFileBodyDto })
  async upload(
    @Req() req: FastifyRequest,
    @CurrentAccount() account: AuthenticatedAccount,
  ): Promise<ApiEnvelopeDto<UploadAnswerDto>> {
    if (!req.isMultipart()) {
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: NOT_MULTIPART_MESSAGE,
        fields: [UPLOAD_FIELD],
      });
    }
    const { url } = await this.uploadFile.execute({ accountId: account.id, files: fileParts(req) });
    return envelope({ url });
  }
}

/** The request's file parts; plain fields are skipped; multipart limits and errors become 400s. */
async function* fileParts(req: FastifyRequest): AsyncGenerator<UploadPart> {
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') yield { fieldName: part.fieldname, stream: part.file };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppException(AppErrorCode.InvalidRequest, {
        message: SEVERAL_FILES_MESSAGE,
        fields: [UPLOAD_FIELD],
      });
    }
    // Anything else the iteration throws is busboy refusing the body (no
    // boundary, truncated data, bad headers): the client's fault, not ours.
    throw new AppException(AppErrorCode.InvalidRequest, {
      message: `Malformed multipart body: ${(error as Error).message}`,
      fields: [UPLOAD_FIELD],
    });
  }
}
