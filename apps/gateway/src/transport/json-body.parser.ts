import type { FastifyInstance } from 'fastify';
import { AppErrorCode, AppException } from '@genhub/errors';
import {
  findUnstorableText,
  mayHoldUnstorableText,
  unstorableTextMessage,
} from './unstorable-text.util';

/**
 * The gateway's only body parser besides multipart: JSON as Fastify parses it
 * (prototype-poisoning keys refused), with refusals that say what is wrong —
 * malformed JSON, a forbidden key, a character that cannot be stored — and an
 * empty body with a JSON content type read as no body.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  // Bodies are JSON (or multipart, registered by the uploads route): anything else is a 400.
  for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded'])
    if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw as string;
    if (body.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body, (error, value) => {
      if (error) done(refusal(body), undefined);
      else if (mayHoldUnstorableText(body)) {
        const field = findUnstorableText(value);
        if (field === undefined) done(null, value);
        else done(invalid(unstorableTextMessage(field), field), undefined);
      } else done(null, value);
    });
  });
}

/** Why a body Fastify refused is refused: it parses as plain JSON only if a key is forbidden. */
function refusal(body: string): AppException {
  try {
    JSON.parse(body);
  } catch {
    return invalid('Malformed JSON in request body');
  }
  return invalid(
    'Forbidden key in request body: "__proto__" and "constructor.prototype" are not accepted',
  );
}

function invalid(message: string, field?: string): AppException {
  return new AppException(AppErrorCode.InvalidRequest, {
    message,
    ...(field === undefined ? {} : { fields: [field], param: field }),
  });
}
