/**
 * A model's input form, derived from the input schema the model listing
 * gives (`input_schemas[run_type]`, an OpenAPI 3.0 schema object): one field
 * per property, its control chosen by type and format, its limits from the
 * schema, so the form refuses what the gateway would.
 */
export type JsonSchema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
  description?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
};

export type FieldControl =
  'text' | 'textarea' | 'integer' | 'number' | 'select' | 'checkbox' | 'file-url';

export interface FormField {
  name: string;
  label: string;
  control: FieldControl;
  required: boolean;
  description?: string;
  options?: string[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  defaultValue?: string;
}

/** Long free text gets a text area (prompts); URLs of media get an upload button beside them. */
const LONG_TEXT = 500;

function controlOf(name: string, schema: JsonSchema): FieldControl {
  if (schema.enum?.length) return 'select';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'checkbox';
  if (schema.format === 'uri' && name.endsWith('_url')) return 'file-url';
  return (schema.maxLength ?? 0) > LONG_TEXT ? 'textarea' : 'text';
}

const labelOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

/**
 * The fields of a schema, required ones first. `channels` (the model's priced
 * tiers) become the choices of a `channel` property, which the schema leaves
 * open because tiers differ per model.
 */
export function formFields(schema: JsonSchema, channels: readonly string[] = []): FormField[] {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]): FormField => {
    const options =
      name === 'channel' && channels.length ? [...channels] : property.enum?.map(String);
    return {
      name,
      label: labelOf(name),
      control: options ? 'select' : controlOf(name, property),
      required: required.has(name),
      description: property.description,
      options,
      min: property.minimum,
      max: property.maximum,
      minLength: property.minLength,
      maxLength: property.maxLength,
      defaultValue: property.default === undefined ? undefined : String(property.default),
    };
  });
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
}

/** What is wrong with a field's raw value, in the words a person reads; undefined when fine. */
export function fieldError(field: FormField, raw: string): string | undefined {
  if (raw === '') return field.required ? `${field.label} is required` : undefined;
  if (field.control === 'integer' || field.control === 'number') {
    const value = Number(raw);
    if (!Number.isFinite(value) || (field.control === 'integer' && !Number.isInteger(value)))
      return `${field.label} must be ${field.control === 'integer' ? 'a whole number' : 'a number'}`;
    if (field.min !== undefined && value < field.min)
      return `${field.label} must be at least ${field.min}`;
    if (field.max !== undefined && value > field.max)
      return `${field.label} must be at most ${field.max}`;
  }
  if (field.minLength !== undefined && raw.length < field.minLength)
    return `${field.label} must be at least ${field.minLength} characters`;
  if (field.maxLength !== undefined && raw.length > field.maxLength)
    return `${field.label} must be at most ${field.maxLength} characters`;
  if (field.options && !field.options.includes(raw))
    return `${field.label} must be one of ${field.options.join(', ')}`;
  return undefined;
}

/**
 * The request body from the form's raw values: empty optional fields left
 * out, numbers as numbers, enum values in the schema's own type.
 */
export function inputFromValues(
  fields: readonly FormField[],
  values: Readonly<Record<string, string>>,
  schema: JsonSchema,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name] ?? '';
    if (raw === '') continue; // untouched: the model's default applies
    const declared = schema.properties?.[field.name];
    if (field.control === 'checkbox') body[field.name] = raw === 'true';
    else if (field.control === 'integer' || field.control === 'number')
      body[field.name] = Number(raw);
    else if (declared?.enum?.length && typeof declared.enum[0] === 'number')
      body[field.name] = Number(raw);
    else body[field.name] = raw;
  }
  return body;
}
