import { ApiProperty } from '@nestjs/swagger';

/**
 * The `/api/v3/` envelope: `{ code: 200, message: "success", data }`.
 * Generic in `data`; the OpenAPI document names one envelope per endpoint.
 */
export class ApiEnvelopeDto<T> {
  @ApiProperty({ type: 'integer', enum: [200] })
  code!: 200;

  @ApiProperty({ enum: ['success'] })
  message!: 'success';

  data!: T;

  static ok<T>(data: T): ApiEnvelopeDto<T> {
    const envelope = new ApiEnvelopeDto<T>();
    envelope.code = 200;
    envelope.message = 'success';
    envelope.data = data;
    return envelope;
  }
}
