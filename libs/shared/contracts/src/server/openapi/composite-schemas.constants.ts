import type { SchemaObject } from '@nestjs/swagger';
import { ref } from './error-responses.constants';
import { MODEL_INPUT_CLASSES, schemaName } from './contract-models.constants';

/**
 * The schemas that are a choice between DTOs (a class cannot say "one of"):
 * the task result, the submit answer and the submit body.
 */
export function compositeSchemas(): Record<string, SchemaObject> {
  return {
    TaskResult: {
      description:
        'A task result: `{id, status: "processing"}` while not terminal, every field when completed, no `timings` when failed.',
      oneOf: [ref('TaskProcessingResult'), ref('TaskCompletedResult'), ref('TaskFailedResult')],
    },
    SubmitResponse: {
      description: 'The acknowledgement (asynchronous submit) or the task result (`sync=true`).',
      oneOf: [
        ref('SubmitAck'),
        ref('TaskProcessingResult'),
        ref('TaskCompletedResult'),
        ref('TaskFailedResult'),
      ],
    },
    // Any of the inputs (anyOf: a body may fit several kinds).
    SubmitBody: {
      description:
        "A submit body: the input of the model's kind. Each kind's schema is its own component.",
      anyOf: MODEL_INPUT_CLASSES.map((dto) => ref(schemaName(dto))),
    },
  };
}
