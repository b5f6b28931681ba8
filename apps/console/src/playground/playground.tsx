import { type GenhubClient, type ModelEntry, taskEvents, uploadMedia } from '@genhub/contracts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { dataOf } from '../common/api-error.util';
import { LoadFailed, showFailure } from '../common/failure';
import { SchemaForm } from './schema-form';
import { fieldError, formFields, inputFromValues, type JsonSchema } from './schema-form.util';
import { type Progress, TaskProgress } from './task-progress';

interface Props {
  client: GenhubClient;
  onSignedOut(message: string): void;
}

/** Pick a model, fill the form its schema gives, submit, and follow the task live. */
export function Playground({ client, onSignedOut }: Props) {
  const [models, setModels] = useState<ModelEntry[]>();
  const [loadError, setLoadError] = useState<string>();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [modelId, setModelId] = useState('');
  const [runType, setRunType] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [sync, setSync] = useState(false);
  const [submitError, setSubmitError] = useState<string>();
  const [progress, setProgress] = useState<Progress>();
  const [uploading, setUploading] = useState<ReadonlySet<string>>(new Set());
  const following = useRef<AbortController | undefined>(undefined);

  const fail = (e: unknown, show: (message: string) => void) => showFailure(e, show, onSignedOut);

  async function loadModels() {
    setLoadError(undefined);
    try {
      const data = dataOf(await client.GET('/api/v3/models'));
      setModels(data.data);
    } catch (e) {
      fail(e, setLoadError);
    }
  }

  useEffect(() => {
    void loadModels();
    return () => following.current?.abort();
  }, [client]);

  const categories = useMemo(() => [...new Set(models?.map((m) => m.category))].sort(), [models]);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (models ?? []).filter(
      (m) =>
        (!category || m.category === category) &&
        (!term || `${m.id} ${m.name} ${m.description}`.toLowerCase().includes(term)),
    );
  }, [models, search, category]);
  const model = models?.find((m) => m.id === modelId);
  const schema = (model && runType ? model.input_schemas[runType] : undefined) as
    JsonSchema | undefined;
  const channels = useMemo(() => Object.keys(model?.pricing ?? {}), [model]);
  const fields = useMemo(() => (schema ? formFields(schema, channels) : []), [schema, channels]);
  // No tier chosen: the model's default applies, which the listing does not name; show the range.
  const prices = values.channel
    ? [model?.pricing[values.channel]]
    : Object.values(model?.pricing ?? {});
  const low = Math.min(...prices.filter((p): p is number => p !== undefined));
  const high = Math.max(...prices.filter((p): p is number => p !== undefined));

  // On a phone the form is below the list: bring it into view once a model is picked.
  useEffect(() => {
    if (modelId && window.matchMedia('(max-width: 40rem)').matches)
      document.getElementById('run-title')?.scrollIntoView({ block: 'start' });
  }, [modelId]);

  function pick(id: string) {
    const next = models?.find((m) => m.id === id);
    setModelId(id);
    setRunType(next?.run_types[0] ?? '');
    setValues({});
    setErrors({});
  }

  /** Uploads the chosen file first; its address fills the field, its refusal shows beside it. */
  async function uploadInto(name: string, file: File) {
    setUploading((busy) => new Set(busy).add(name));
    setErrors((e) => ({ ...e, [name]: undefined }));
    try {
      const url = await uploadMedia(client, file);
      setValues((v) => ({ ...v, [name]: url }));
    } catch (e) {
      fail(e, (message) => setErrors((errs) => ({ ...errs, [name]: message })));
    } finally {
      setUploading((busy) => {
        const next = new Set(busy);
        next.delete(name);
        return next;
      });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!model || !schema) return;
    const found = Object.fromEntries(
      fields.map((f) => [f.name, fieldError(f, values[f.name] ?? '')]),
    );
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitError(undefined);
    following.current?.abort();
    const [provider_id, model_id] = model.id.split('/');
    try {
      const data = dataOf(
        await client.POST('/v1/{provider_id}/{model_id}/{run_type}', {
          params: {
            path: { provider_id, model_id, run_type: runType },
            query: sync ? { sync: true } : {},
          },
          body: inputFromValues(fields, values, schema) as never,
        }),
      );
      setProgress({
        id: data.id,
        status: data.status === 'completed' || data.status === 'failed' ? data.status : 'created',
      });
      await follow(data.id);
    } catch (e) {
      fail(e, setSubmitError);
    }
  }

  async function follow(id: string) {
    const controller = new AbortController();
    following.current = controller;
    for await (const event of taskEvents(client, id, { signal: controller.signal })) {
      if (event.event === 'queue')
        setProgress((p) => p && { ...p, queuePosition: event.data.queue_position });
      else if (event.event === 'deleted') setProgress({ id, status: 'deleted' });
      else setProgress({ id, status: event.event, task: event.data });
    }
  }

  if (loadError) return <LoadFailed message={loadError} onRetry={() => void loadModels()} />;
  if (!models) return <p aria-busy="true">Loading models…</p>;
  if (!models.length) return <p>No models are available.</p>;

  return (
    <div className="playground">
      <section aria-labelledby="models-title" className="models">
        <h2 id="models-title">Models</h2>
        <div className="filters">
          <label>
            Search
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <label>
            Category
            <select value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">All</option>
              {categories.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        </div>
        <ul className="model-list">
          {shown.map((m) => (
            <li key={m.id}>
              <button aria-pressed={m.id === modelId} onClick={() => pick(m.id)}>
                <strong>{m.name}</strong> <code>{m.id}</code>
                <span>{m.description}</span>
              </button>
            </li>
          ))}
          {!shown.length && <li>No model matches.</li>}
        </ul>
      </section>
      {model && (
        <form onSubmit={submit} className="run" aria-labelledby="run-title" noValidate>
          <h2 id="run-title">{model.name}</h2>
          {model.run_types.length > 1 && (
            <label>
              Run type
              <select value={runType} onChange={(e) => setRunType(e.target.value)}>
                {model.run_types.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
          )}
          {schema ? (
            <SchemaForm
              fields={fields}
              values={values}
              errors={errors}
              onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
              onFile={(name, file) => void uploadInto(name, file)}
              uploading={uploading}
            />
          ) : (
            <p>This run type publishes no input schema.</p>
          )}
          <label className="inline">
            <input type="checkbox" checked={sync} onChange={(e) => setSync(e.target.checked)} />
            Wait for the result (sync)
          </label>
          <p className="price">
            Price: {Number.isFinite(low) ? (low === high ? low : `${low}–${high}`) : '—'} per task
            {values.channel ? ` (${values.channel} tier)` : ''}
          </p>
          <button type="submit" disabled={uploading.size > 0}>
            Run
          </button>
          {submitError && (
            <p role="alert" className="error">
              {submitError}
            </p>
          )}
        </form>
      )}
      {progress && <TaskProgress progress={progress} />}
    </div>
  );
}
