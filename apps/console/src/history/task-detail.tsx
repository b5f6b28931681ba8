import type { TaskListItem } from '@genhub/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiError } from '../common/api-error.util';
import { Failure } from '../common/failure';
import { OutputView } from '../playground/output-view';
import { useSession } from '../session/session';

interface Props {
  task: TaskListItem;
  /** Back to the list (after a delete too: the list is read again). */
  onClose(): void;
}

/** One task: its input, timings, outputs or error, its webhook deliveries, and delete. */
export function TaskDetail({ task, onClose }: Props) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);

  // null: the task has no webhook.
  const deliveries = useQuery({
    queryKey: ['tasks', task.id, 'webhook-deliveries'],
    queryFn: async ({ signal }) => {
      const { data, error, response } = await client.GET(
        '/api/v3/predictions/{task_id}/webhook-deliveries',
        { params: { path: { task_id: task.id } }, signal },
      );
      if (response.status === 404) return null;
      if (error !== undefined || !data) throw apiError(response.status, error);
      return data.data;
    },
  });
  const delivery = deliveries.data;

  const remove = useMutation({
    mutationFn: async () => {
      const { error, response } = await client.DELETE('/api/v3/predictions/{task_id}', {
        params: { path: { task_id: task.id } },
      });
      if (error !== undefined) throw apiError(response.status, error);
    },
    onSuccess: async () => {
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['tasks'] });
    },
  });
  const error = remove.error ?? deliveries.error;

  return (
    <section aria-labelledby="detail-title" className="detail">
      <button onClick={onClose}>Back to the list</button>
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
      <Failure error={error} />
      <h3>Delete</h3>
      {confirming ? (
        <p>
          Delete this task? Its outputs stop working at once; processing already done is not
          refunded. <button onClick={() => remove.mutate()}>Yes, delete</button>{' '}
          <button onClick={() => setConfirming(false)}>Keep it</button>
        </p>
      ) : (
        <button onClick={() => setConfirming(true)}>Delete task</button>
      )}
    </section>
  );
}
