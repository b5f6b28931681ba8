import {
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';

/** The longest message content, in characters (after joining its text parts). */
export const MAX_CHAT_CONTENT = 100_000;

/** One text part of a message's `content` array (the chat-completions wire format). */
export interface ChatTextPart {
  type: 'text';
  text: string;
}

function isTextPart(part: unknown): part is ChatTextPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    (part as { type?: unknown }).type === 'text' &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}

/**
 * `content` as the models see it: a string as given; an array of text parts
 * joined with newlines (as OpenAI-compatible servers such as vLLM join them),
 * so pricing, token counts and upstreams keep one string. Anything else is
 * left as it came, for ChatContentConstraint to explain.
 */
export function joinTextParts(value: unknown): unknown {
  if (Array.isArray(value) && value.length > 0 && value.every(isTextPart))
    return value.map((part) => part.text).join('\n');
  return value;
}

/** Why a `content` value is refused, or undefined when it is a string within the limit. */
function contentProblem(value: unknown, field: string): string | undefined {
  if (typeof value === 'string')
    return value.length > MAX_CHAT_CONTENT
      ? `${field} must be shorter than or equal to ${MAX_CHAT_CONTENT} characters`
      : undefined;
  if (!Array.isArray(value)) return `${field} must be a string or an array of text parts`;
  if (value.length === 0) return `${field} must not be an empty array`;
  for (const [i, part] of value.entries()) {
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof part !== 'object' || part === null || Array.isArray(part))
      return `${field}[${i}] must be an object {"type":"text","text":…}`;
    if (typeof type !== 'string') return `${field}[${i}].type must be "text"`;
    if (type !== 'text')
      return `${field}[${i}].type "${type}" is not supported by this model; only "text" parts are accepted`;
    if (typeof (part as { text?: unknown }).text !== 'string')
      return `${field}[${i}].text must be a string`;
  }
  return undefined;
}

/** `content`: a string, or text parts already joined by `joinTextParts`. */
@ValidatorConstraint({ name: 'chatContent' })
export class ChatContentConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= MAX_CHAT_CONTENT;
  }

  defaultMessage(args: ValidationArguments): string {
    return contentProblem(args.value, args.property) ?? `${args.property} is invalid`;
  }
}
