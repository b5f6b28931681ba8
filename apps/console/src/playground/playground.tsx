import { isTerminalResult, type ModelEntry, taskEvents, uploadMedia } from '@genhub/contracts';
import { useMutation, useMutationState, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { dataOf } from '../common/api-error.util';
import { Failure, failureMessage, LoadFailed } from '../common/failure';
import { useSession } from '../session/session';
import { SchemaForm } from './schema-form';
import { fieldError, formFields, inputFromValues, type JsonSchema } from './schema-form.util';
import { type Progress, TaskProgress } from './task-progress';

const NO_MODELS: ModelEntry[] = [];

/** Pick a model, fill the form its schema gives, submit, and follow the task live. */
export function Playground() {
  const { client } = useSession();
  const listing = useQuery({
    queryKey: ['models'],
    queryFn: async ({ signal }) => dataOf(await client.GET('/api/v3/models', { signal })).data,
  });
  const models = listing.data;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [modelId, setModelId] = useState('');
  const [runType, setRunType] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [sync, setSync] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const following = useRef<AbortController | undefined>(undefined);

  // The task followed stops being followed when the page closes.
  useEffect(() => () => following.current?.abort(), []);

  // The fields whose file is uploading (each upload is one mutation, named by its field).
  const uploading = new Set(
    useMutationState({
      filters: { mutationKey: ['upload'], status: 'pending' },
      select: (mutation) => (mutation.state.variables as { name: string }).name,
    }),
  );
  const upload = useMutation({
    mutationKey: ['upload'],
    mutationFn: ({ file }: { name: string; file: File }) => uploadMedia(client, file),
  });

  const run = useMutation({
    /** Submits, then follows the task's events until it ends (or another run starts). */
    mutationFn: async (submit: {
      model: ModelEntry;
      runType: string;
      sync: boolean;
      input: unknown;
    }) => {
      following.current?.abort();
      const controller = new AbortController();
      following.current = controller;
      const [provider_id, model_id] = submit.model.id.split('/');
      const data = dataOf(
        await client.POST('/v1/{provider_id}/{model_id}/{run_type}', {
          params: {
            path: { provider_id, model_id, run_type: submit.runType },
            query: submit.sync ? { sync: true } : {},
          },
          body: submit.input as never,
        }),
      );
      const id = data.id;
      setProgress({
        id,
        status: isTerminalResult(data) ? data.status : 'created',
      });
      for await (const event of taskEvents(client, id, { signal: controller.signal })) {
        if (event.event === 'queue')
          setProgress((p) => p && { ...p, queuePosition: event.data.queue_position });
        else if (event.event === 'deleted') setProgress({ id, status: 'deleted' });
        else setProgress({ id, status: event.event, task: event.data });
      }
    },
  });

  const categories = useMemo(() => [...new Set(models?.map((m) => m.category))].sort(), [models]);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (models ?? NO_MODELS).filter(
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
  function uploadInto(name: string, file: File) {
    setErrors((e) => ({ ...e, [name]: undefined }));
    // One promise per upload (a mutate callback would fire for the last one only).
    void upload.mutateAsync({ name, file }).then(
      (url) => setValues((v) => ({ ...v, [name]: url })),
      (e: unknown) => setErrors((errs) => ({ ...errs, [name]: failureMessage(e) })),
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!model || !schema) return;
    const found = Object.fromEntries(
      fields.map((f) => [f.name, fieldError(f, values[f.name] ?? '')]),
    );
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    run.mutate({ model, runType, sync, input: inputFromValues(fields, values, schema) });
  }

  if (listing.error)
    return <LoadFailed error={listing.error} onRetry={() => void listing.refetch()} />;
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
              onFile={uploadInto}
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
          <Failure error={run.error} />
        </form>
      )}
      {progress && <TaskProgress progress={progress} />}
    </div>
  );
}
