import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * The body POSTed to the `webhook` URL when a task is terminal (interface.md,
 * "Events"): exactly these keys, for success and failure alike.
 */
@ApiSchema({ name: 'WebhookPayload' })
export class WebhookPayloadDto {
  @ApiProperty({ description: 'Task id, the same as in the submit acknowledgement.' })
  id!: string;

  @ApiProperty({ example: 'local/simulator/test' })
  model!: string;

  @ApiProperty({ enum: ['completed', 'failed'] })
  status!: 'completed' | 'failed';

  @ApiProperty({ type: 'integer', description: '`0` on success, otherwise a task error code.' })
  code!: number;

  @ApiProperty({ description: 'Task creation time, ISO 8601 without zone suffix.' })
  created_at!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The parameters that were submitted.',
  })
  input!: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'Output URLs; empty when failed.' })
  outputs!: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Error message; null when succeeded.' })
  error!: string | null;
}

/** One delivery attempt, as recorded by the webhook dispatcher. */
@ApiSchema({ name: 'WebhookDeliveryAttempt' })
export class WebhookDeliveryAttemptDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 3 })
  attempt!: number;

  @ApiProperty({ format: 'date-time', description: 'When the attempt started (ISO 8601, UTC).' })
  started_at!: string;

  @ApiProperty({
    type: 'integer',
    description: 'Milliseconds until the answer, error or time-out.',
  })
  duration_ms!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Receiver status; null when no answer.',
  })
  status_code!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the attempt failed; null on 2xx.',
  })
  error!: string | null;
}

/** `data` of `GET /api/v3/predictions/{id}/webhook-deliveries`: one entry per delivery. */
@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryDto {
  @ApiProperty({ description: 'The `webhook-id` header: the task id.' })
  id!: string;

  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status!: 'pending' | 'delivered' | 'failed';

  @ApiProperty({ type: () => [WebhookDeliveryAttemptDto] })
  attempts!: WebhookDeliveryAttemptDto[];
}
