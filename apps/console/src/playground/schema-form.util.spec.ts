import { fieldError, formFields, inputFromValues, type JsonSchema } from './schema-form.util';

/** The shape of a model input schema as `GET /api/v3/models` gives it (the simulator's, abridged). */
const SIMULATOR: JsonSchema = {
  type: 'object',
  required: ['prompt'],
  properties: {
    seed: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
    channel: { type: 'string', description: 'Service tier.' },
    prompt: { type: 'string', minLength: 1, maxLength: 10000 },
    duration_ms: { type: 'integer', minimum: 0, maximum: 600000, default: 0 },
    fail_code: { type: 'integer', enum: [1200, 1402, 5004] },
    aspect_ratio: { type: 'string', enum: ['1:1', '16:9'] },
    image_url: { type: 'string', format: 'uri', maxLength: 2048 },
    safe: { type: 'boolean' },
  },
};

describe('form generation from a model input schema', () => {
  const fields = formFields(SIMULATOR, ['economy', 'stable']);
  const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

  it('gives one field per property, required ones first, each control by type', () => {
    expect(fields[0]).toMatchObject({ name: 'prompt', required: true, control: 'textarea' });
    expect(fields.map((f) => f.name).slice(1)).toEqual([
      'seed',
      'channel',
      'duration_ms',
      'fail_code',
      'aspect_ratio',
      'image_url',
      'safe',
    ]);
    expect(byName.seed).toMatchObject({
      control: 'integer',
      min: 0,
      max: 2147483647,
      defaultValue: '0',
    });
    expect(byName.fail_code).toMatchObject({
      control: 'select',
      options: ['1200', '1402', '5004'],
    });
    expect(byName.aspect_ratio.options).toEqual(['1:1', '16:9']);
    expect(byName.image_url.control).toBe('file-url');
    expect(byName.safe.control).toBe('checkbox');
    expect(byName.duration_ms.label).toBe('Duration ms');
  });

  it('offers the model’s priced tiers as the channel choices', () => {
    expect(byName.channel).toMatchObject({ control: 'select', options: ['economy', 'stable'] });
    expect(formFields(SIMULATOR).find((f) => f.name === 'channel')?.control).toBe('text');
  });

  it('refuses what the gateway would, in words', () => {
    expect(fieldError(byName.prompt, '')).toBe('Prompt is required');
    expect(fieldError(byName.seed, '')).toBeUndefined();
    expect(fieldError(byName.duration_ms, '700000')).toBe('Duration ms must be at most 600000');
    expect(fieldError(byName.duration_ms, '-1')).toBe('Duration ms must be at least 0');
    expect(fieldError(byName.seed, '1.5')).toBe('Seed must be a whole number');
    expect(fieldError(byName.seed, 'x')).toBe('Seed must be a whole number');
    expect(fieldError(byName.prompt, 'a'.repeat(10001))).toBe(
      'Prompt must be at most 10000 characters',
    );
    expect(fieldError(byName.aspect_ratio, '4:3')).toBe('Aspect ratio must be one of 1:1, 16:9');
    expect(fieldError(byName.prompt, 'a cat')).toBeUndefined();
  });

  it('builds the body: empty optionals left out, numbers and numeric enums as numbers', () => {
    const body = inputFromValues(
      fields,
      {
        prompt: 'a cat',
        seed: '',
        duration_ms: '250',
        fail_code: '1402',
        aspect_ratio: '16:9',
        safe: 'true',
      },
      SIMULATOR,
    );
    expect(body).toEqual({
      prompt: 'a cat',
      duration_ms: 250,
      fail_code: 1402,
      aspect_ratio: '16:9',
      safe: true,
    });
  });
});
