import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * The body POSTed to the `webhook` URL when a task is terminal (docs/interface.md,
 * "Webhook payload"): exactly these keys, for success and failure alike.
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

  @ApiProperty({
    description: 'When the attempt started: ISO 8601 in UTC without zone suffix.',
    example: '2025-01-31T12:00:03.456',
  })
  started_at!: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's HTTP status; null when it never answered.",
  })
  status_code!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the attempt failed without an answer (time-out, refused, DNS…); else null.',
  })
  error!: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'Milliseconds until the answer, error or time-out.',
  })
  duration_ms!: number;
}

/** `data` of `GET /api/v3/predictions/{id}/webhook-deliveries`: the delivery log of the task's webhook. */
@ApiSchema({ name: 'WebhookDelivery' })
export class WebhookDeliveryDto {
  @ApiProperty({ description: 'The task id (also the `webhook-id` header of every attempt).' })
  task_id!: string;

  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty({
    enum: ['pending', 'delivered', 'abandoned'],
    description: '`abandoned` after the last failed attempt.',
  })
  status!: 'pending' | 'delivered' | 'abandoned';

  @ApiProperty({ description: 'When the delivery was scheduled: ISO 8601 in UTC, no zone suffix.' })
  created_at!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'When a 2xx was received; null until then.',
  })
  delivered_at!: string | null;

  @ApiProperty({ type: () => [WebhookDeliveryAttemptDto] })
  attempts!: WebhookDeliveryAttemptDto[];
}
