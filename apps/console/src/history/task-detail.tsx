import type { GenhubClient, TaskListItem, WebhookDelivery } from '@genhub/contracts';
import { useEffect, useState } from 'react';
import { apiError, toApiError } from '../common/api-error.util';
import { OutputView } from '../playground/output-view';

interface Props {
  client: GenhubClient;
  task: TaskListItem;
  onClose(deleted: boolean): void;
}

/** One task: its input, timings, outputs or error, its webhook deliveries, and delete. */
export function TaskDetail({ client, task, onClose }: Props) {
  // null: the task has no webhook.
  const [delivery, setDelivery] = useState<WebhookDelivery | null>();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    client
      .GET('/api/v3/predictions/{task_id}/webhook-deliveries', {
        params: { path: { task_id: task.id } },
      })
      .then(({ data, error: refused, response }) => {
        if (response.status === 404) return setDelivery(null);
        if (refused !== undefined || !data) throw apiError(response.status, refused);
        setDelivery(data.data);
      })
      .catch((e: unknown) => setError(toApiError(e).message));
  }, [client, task.id]);

  async function remove() {
    try {
      const { error: refused, response } = await client.DELETE('/api/v3/predictions/{task_id}', {
        params: { path: { task_id: task.id } },
      });
      if (refused !== undefined) throw apiError(response.status, refused);
      onClose(true);
    } catch (e) {
      setError(toApiError(e).message);
    }
  }

  return (
    <section aria-labelledby="detail-title" className="detail">
      <button onClick={() => onClose(false)}>Back to the list</button>
      <h2 id="detail-title">
        Task <code>{task.id}</code>: <span className={`status ${task.status}`}>{task.status}</span>
      </h2>
      <dl>
        <dt>Model</dt>
        <dd>
          <code>{task.model}</code>
        </dd>
        <dt>Created</dt>
        <dd>{new Date(task.created_at).toLocaleString()}</dd>
        {task.status === 'failed' && (
          <>
            <dt>Error</dt>
            <dd className="error">
              {task.code}: {task.error}
            </dd>
          </>
        )}
        {task.timings && (
          <>
            <dt>Timings (ms)</dt>
            <dd>
              {Object.entries(task.timings)
                .map(([name, ms]) => `${name.replace('_', ' ')} ${ms}`)
                .join(' · ')}
            </dd>
          </>
        )}
      </dl>
      <h3>Input</h3>
      <pre className="input">{JSON.stringify(task.input ?? {}, null, 2)}</pre>
      {task.outputs.length > 0 && (
        <>
          <h3>Outputs</h3>
          <div className="outputs">
            {task.outputs.map((url, index) => (
              <OutputView key={url} url={url} index={index} />
            ))}
          </div>
        </>
      )}
      <h3>Webhook deliveries</h3>
      {delivery === undefined && !error && <p aria-busy="true">Loading deliveries…</p>}
      {delivery === null && <p>No webhook for this task.</p>}
      {delivery && (
        <div>
          <p>
            <code>{delivery.url}</code>: {delivery.status}
          </p>
          <ol>
            {delivery.attempts.map((a) => (
              <li key={a.attempt}>
                {a.started_at}: {a.status_code ?? a.error} in {a.duration_ms} ms
              </li>
            ))}
          </ol>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <h3>Delete</h3>
      {confirming ? (
        <p>
          Delete this task? Its outputs stop working at once; processing already done is not
          refunded. <button onClick={() => void remove()}>Yes, delete</button>{' '}
          <button onClick={() => setConfirming(false)}>Keep it</button>
        </p>
      ) : (
        <button onClick={() => setConfirming(true)}>Delete task</button>
      )}
    </section>
  );
}
