/**
 * Text PostgreSQL cannot store: NUL (refused in `text` and `jsonb`) and
 * unpaired UTF-16 surrogates (refused in `jsonb`). JSON and percent-encoding
 * can carry both; they are refused at the edge, naming the field, before
 * anything is written (issue 17).
 */

/** A JSON text that may hold such characters: only a `\u` escape can put them there. */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89abAB])/;

export function mayHoldUnstorableText(json: string): boolean {
  return SUSPECT_ESCAPE.test(json);
}

/** NUL, or a surrogate (in `u` mode a paired one is part of a code point, so only lone ones match). */
const UNSTORABLE = /[\0\p{Cs}]/u;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/**
 * The path of the first string (key or value) that cannot be stored, in the
 * validation messages' notation (`messages[1].content`), or undefined.
 */
export function findUnstorableText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || '(body)';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return field;
      const found = findUnstorableText(item, field);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function unstorableTextMessage(field: string): string {
  return `${field} contains a character that cannot be accepted (NUL or an unpaired surrogate)`;
}
