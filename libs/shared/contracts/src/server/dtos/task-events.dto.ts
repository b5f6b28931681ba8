import { ApiProperty, ApiSchema } from '@nestjs/swagger';

const TASK_ID_EXAMPLE = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** `data` of `POST /api/v3/predictions/{id}/events/token`: how an `EventSource` opens the stream. */
@ApiSchema({ name: 'TaskEventsToken' })
export class TaskEventsTokenDto {
  @ApiProperty({
    description:
      'The stream’s URL with the token in its query: give it to `new EventSource(url)` as it is.',
    example: `https://api.example.com/api/v3/predictions/${TASK_ID_EXAMPLE}/events?token=eyJhIjoi…`,
  })
  url!: string;

  @ApiProperty({ description: 'The token alone (the `token` query parameter of the stream).' })
  token!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'Until when the token opens the stream (five minutes); an open stream lasts.',
  })
  expires_at!: string;
}

/** `data` of a stream's `queue` event: where the task stands while it waits. */
@ApiSchema({ name: 'TaskQueueEvent' })
export class TaskQueueEventDto {
  @ApiProperty({ example: TASK_ID_EXAMPLE })
  id!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 3,
    description:
      'Tasks ahead of this one under fair scheduling (0: it runs next): the tasks other accounts get before it by their turns and weights, and its own account’s earlier tasks.',
  })
  queue_position!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    nullable: true,
    example: 1500,
    description:
      'Milliseconds until the task should start, at the pace tasks were started over the last 10–20 seconds (0: it runs next; null: none started lately, so no pace to go by).',
  })
  estimated_start_ms!: number | null;
}
