import { getSchemaPath } from '@nestjs/swagger';
import { readOpenApiDocumentText } from '../openapi-file.util';

export type JsonSchema = Record<string, unknown>;

let components: Record<string, JsonSchema> | undefined;
const byName = new Map<string, JsonSchema | undefined>();

/** Replaces every `$ref` to a component by the component itself (the input schemas hold no cycles). */
function inline(value: unknown, depth = 0): unknown {
  if (depth > 32) throw new Error('input schema nests too deep (a reference cycle?)');
  if (Array.isArray(value)) return value.map((item) => inline(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string')
    return inline(components?.[ref.split('/').pop() as string], depth + 1);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, inline(item, depth + 1)]),
  );
}

/**
 * A model input class's schema as the published document has it, every
 * reference inlined: enough on its own for a client to validate an input or
 * build a form (required fields, types, ranges, enums). Undefined for a class
 * the document does not hold.
 */
export function inputJsonSchema(inputClass: abstract new () => object): JsonSchema | undefined {
  const name = getSchemaPath(inputClass).split('/').pop() as string;
  if (!byName.has(name)) {
    components ??= (
      JSON.parse(readOpenApiDocumentText()) as {
        components: { schemas: Record<string, JsonSchema> };
      }
    ).components.schemas;
    const schema = components[name];
    byName.set(name, schema ? (inline(schema) as JsonSchema) : undefined);
  }
  return byName.get(name);
}
