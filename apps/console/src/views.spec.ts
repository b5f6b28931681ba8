import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { OutputView } from './playground/output-view';
import { SchemaForm } from './playground/schema-form';
import { formFields } from './playground/schema-form.util';
import { TaskProgress } from './playground/task-progress';
import { apiError } from './common/api-error.util';
import { capText, validCap } from './operator/account-cap.util';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { KeySettingsForm } from './keys/key-form';
import { KeysPanel } from './keys/keys-panel';
import type { KeysApi, KeyView } from './keys/keys-api';
import { EMPTY_KEY_FORM } from './keys/key-settings.util';

/** The views rendered to markup (no browser): what a screen reader and a form submit would see. */
describe('console views', () => {
  const schema = {
    type: 'object',
    required: ['prompt'],
    properties: {
      prompt: { type: 'string', maxLength: 2000, description: 'What to draw.' },
      num_outputs: { type: 'integer', minimum: 1, maximum: 4 },
      image_url: { type: 'string', format: 'uri' },
    },
  };
  const fields = formFields(schema);
  const render = (props: Partial<Parameters<typeof SchemaForm>[0]> = {}) =>
    renderToStaticMarkup(
      createElement(SchemaForm, {
        fields,
        values: {},
        errors: {},
        onChange: () => undefined,
        onFile: () => undefined,
        uploading: new Set<string>(),
        ...props,
      }),
    );

  it('labels every generated control and carries the schema’s limits', () => {
    const html = render();
    expect(html).toContain(
      '<label for="field-prompt">Prompt<span aria-hidden="true"> *</span></label>',
    );
    expect(html).toMatch(
      /<textarea id="field-prompt" name="prompt" required="" aria-describedby="field-prompt-help" rows="3" maxLength="2000">/,
    );
    expect(html).toMatch(
      /<input id="field-num_outputs" type="number" step="1" min="1" max="4" name="num_outputs"/,
    );
    expect(html).toContain('<small id="field-prompt-help">What to draw.</small>');
  });

  it('offers an upload beside a media URL, disabled while its file uploads', () => {
    expect(render()).toMatch(/Or upload a file for Image url<input type="file"\/>/);
    const busy = render({ uploading: new Set(['image_url']) });
    expect(busy).toMatch(
      /<input type="file" disabled=""\/><span aria-live="polite"> Uploading…<\/span>/,
    );
  });

  it('marks a field in error and points to its message', () => {
    const html = render({ errors: { num_outputs: 'Num outputs must be at most 4' } });
    expect(html).toMatch(
      /id="field-num_outputs"[^>]*aria-invalid="true" aria-describedby="field-num_outputs-error"/,
    );
    expect(html).toContain(
      '<small id="field-num_outputs-error" class="error">Num outputs must be at most 4</small>',
    );
  });

  it('shows each output as what it is, with a download link', () => {
    const image = renderToStaticMarkup(
      createElement(OutputView, { url: 'http://x/o/t1/0.png', index: 0 }),
    );
    expect(image).toContain('<img src="http://x/o/t1/0.png" alt="Output 1"/>');
    const audio = renderToStaticMarkup(
      createElement(OutputView, { url: 'http://x/o/t1/0.wav', index: 1 }),
    );
    expect(audio).toContain('<audio src="http://x/o/t1/0.wav" controls="" aria-label="Output 2">');
    expect(audio).toContain('Download output 2 (audio)');
  });

  it('shows a waiting task’s place in the queue and a failed task’s code as an alert', () => {
    const waiting = renderToStaticMarkup(
      createElement(TaskProgress, { progress: { id: 't1', status: 'created', queuePosition: 3 } }),
    );
    expect(waiting).toContain('3 task(s) ahead in the queue.');
    const failed = renderToStaticMarkup(
      createElement(TaskProgress, {
        progress: {
          id: 't1',
          status: 'failed',
          task: { code: 1402, error: 'Input media could not be read' } as never,
        },
      }),
    );
    expect(failed).toContain(
      '<p role="alert" class="error">Failed with code 1402: Input media could not be read</p>',
    );
  });

  it('reads the message of every error family, with the top-up hint on 402', () => {
    expect(apiError(402, { code: 402, message: 'Insufficient balance', data: null }).message).toBe(
      'Insufficient balance — top up the account to continue.',
    );
    expect(apiError(403, { error: 'Account suspended' }).message).toBe('Account suspended');
    expect(apiError(400, { error: { code: 1001, error: 'prompt is required' } }).message).toBe(
      'prompt is required',
    );
    expect(
      apiError(429, {
        error: { message: 'Too many requests', type: 'rate_limit_error', param: null },
      }).message,
    ).toBe('Too many requests');
    // A key's spend limit is no matter of the balance: its own hint, on every route family.
    const keyLimit =
      'API key spend limit reached. Limit: $0.002 per day, spent: $0.002, required: $0.001.';
    const keyHint = " — raise the key's spend limit (API keys page) or wait for its next period.";
    expect(apiError(402, { code: 402, message: keyLimit, data: null }).message).toBe(
      keyLimit + keyHint,
    );
    expect(apiError(402, { code: 402, error: { code: 1301, error: keyLimit } }).message).toBe(
      keyLimit + keyHint,
    );
    expect(apiError(401, undefined)).toMatchObject({
      signedOut: true,
      message: 'The server answered 401',
    });
  });

  it("says an account's cap on tasks running at once, and no cap when there is none", () => {
    expect(capText(null)).toBe('no cap');
    expect(capText(1)).toBe('1 task at once');
    expect(capText(10_000)).toBe('10000 tasks at once');
    expect(['1', '10000', '25'].map(validCap)).toEqual([true, true, true]);
    expect(['', ' ', '0', '-1', '2.5', '10001', 'x'].map(validCap)).toEqual(Array(7).fill(false));
  });

  it('labels every field of a key’s settings, the scopes as one group of checkboxes, all ticked', () => {
    const html = renderToStaticMarkup(
      createElement(KeySettingsForm, {
        initial: EMPTY_KEY_FORM,
        submitLabel: 'Create a key',
        currency: 'USD',
        busy: false,
        onSubmit: () => undefined,
      }),
    );
    for (const label of [
      'Key name (optional)',
      'Allowed models (one pattern a line; empty: every model)',
    ])
      expect(html).toMatch(
        new RegExp(`<label for="[^"]+">${label.replace(/[()]/g, '\\$&')}</label>`),
      );
    expect(html).toContain('Spend limit (USD); empty: none<input type="number"');
    expect(html).toMatch(/<option value="day" selected="">per day \(UTC\)<\/option>/);
    expect(html).toContain('Expires at (your time; empty: never)<input type="datetime-local"');
    expect(html).toContain('<fieldset class="scopes"><legend>Scopes</legend>');
    expect(html.match(/<input type="checkbox" checked=""\/>/g)).toHaveLength(5);
    expect(html).toContain('<button type="submit">Create a key</button>');
  });

  it('lists each key’s limits and its spend against them, the bar full at the limit', () => {
    const key = (change: Partial<KeyView>): KeyView => ({
      id: 'k',
      name: 'batch',
      prefix: 'gh_1a2b3c4d',
      status: 'active',
      allowed_models: ['local/*'],
      spend_limit: { amount: 0.002, period: 'day' },
      spent: 0.002,
      expires_at: null,
      scopes: ['tasks:write', 'tasks:read'],
      created_at: '2026-01-01T00:00:00.000Z',
      revoked_at: null,
      last_used_at: null,
      ...change,
    });
    const keys = [
      key({}),
      key({ id: 'u', name: 'open', spend_limit: null, allowed_models: null, scopes: null }),
      key({ id: 'r', name: 'gone', status: 'revoked', revoked_at: '2026-01-02T00:00:00.000Z' }),
    ];
    const api = { queryKey: ['keys', 'own'] } as unknown as KeysApi;
    const cache = new QueryClient();
    cache.setQueryData(api.queryKey, keys);
    const html = renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client: cache },
        createElement(KeysPanel, { api, currency: 'USD', createLabel: 'Create a key' }),
      ),
    );
    const rows = html.split('<tr>').slice(2);
    expect(rows[0]).toContain(
      '<td class="limits"><span>Models: local/*</span><span>Scopes: tasks:write, tasks:read</span><span>Expires: never</span></td>',
    );
    expect(rows[0]).toContain(
      '<span class="error">0.002 of 0.002 USD today (UTC) — limit reached</span><meter min="0" max="0.002" value="0.002" aria-label="Spent of the limit of batch">',
    );
    expect(rows[0]).toContain('<button>Edit batch</button> <button>Revoke batch</button>');
    expect(rows[1]).toContain('Models: every model');
    expect(rows[1]).toContain('<span>0.002 USD since issued (no limit)</span></td>');
    expect(rows[1]).not.toContain('<meter');
    expect(rows[2]).toContain('<td class="status failed">revoked ');
    expect(rows[2]).not.toContain('<button');
  });
});
