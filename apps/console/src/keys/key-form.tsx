import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  SPEND_PERIODS,
  type SpendPeriod,
} from '@genhub/contracts';
import { useId, useState, type FormEvent } from 'react';
import { formProblem, type KeyForm, PERIOD_LABELS } from './key-settings.util';

interface Props {
  /** What the fields hold at first: empty for a new key, a key's settings to edit them. */
  initial: KeyForm;
  /** "Create a key", "Save limits". */
  submitLabel: string;
  /** The account's currency, for the spend limit's label. */
  currency: string;
  busy: boolean;
  onSubmit(form: KeyForm): void;
  onCancel?(): void;
}

/** A key's settings: name, models, spend limit, expiry, scopes; checked before any request. */
export function KeySettingsForm({
  initial,
  submitLabel,
  currency,
  busy,
  onSubmit,
  onCancel,
}: Props) {
  const id = useId();
  const [form, setForm] = useState(initial);
  const [tried, setTried] = useState(false);
  const problem = formProblem(form);
  const set = (change: Partial<KeyForm>) => setForm((f) => ({ ...f, ...change }));
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setForm((f) => ({
      ...f,
      scopes: on ? [...f.scopes, scope] : f.scopes.filter((s) => s !== scope),
    }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!problem) onSubmit(form);
  }

  return (
    <form onSubmit={submit} className="card key-form" aria-describedby={`${id}-problem`}>
      <label htmlFor={`${id}-name`}>Key name (optional)</label>
      <input
        id={`${id}-name`}
        value={form.name}
        maxLength={100}
        onChange={(e) => set({ name: e.target.value })}
      />
      <label htmlFor={`${id}-models`}>
        Allowed models (one pattern a line; empty: every model)
      </label>
      <textarea
        id={`${id}-models`}
        rows={2}
        placeholder="local/*"
        value={form.models}
        onChange={(e) => set({ models: e.target.value })}
      />
      <div className="actions">
        <label>
          Spend limit{currency ? ` (${currency})` : ''}; empty: none
          <input
            type="number"
            min={0}
            step="any"
            value={form.limitAmount}
            onChange={(e) => set({ limitAmount: e.target.value })}
          />
        </label>
        <label>
          Period
          <select
            value={form.limitPeriod}
            onChange={(e) => set({ limitPeriod: e.target.value as SpendPeriod })}
          >
            {SPEND_PERIODS.map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period].limit}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires at (your time; empty: never)
          <input
            type="datetime-local"
            value={form.expiresAt}
            onChange={(e) => set({ expiresAt: e.target.value })}
          />
        </label>
      </div>
      <fieldset className="scopes">
        <legend>Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label className="inline" key={scope}>
            <input
              type="checkbox"
              checked={form.scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
            />
            {scope}
          </label>
        ))}
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      <p id={`${id}-problem`} role="alert" className="error">
        {tried ? problem : undefined}
      </p>
    </form>
  );
}
