import {
  type GenhubClient,
  listTasks,
  type ListTasksQuery,
  type TaskListItem,
} from '@genhub/contracts';
import { useEffect, useState } from 'react';
import { ListState, showFailure } from '../common/failure';
import { TaskDetail } from './task-detail';

interface Props {
  client: GenhubClient;
  onSignedOut(message: string): void;
}

const STATUSES = ['created', 'processing', 'completed', 'failed'] as const;
const PAGE_SIZE = 20;

/** The caller's tasks, newest first, filtered and paged; a task opens its detail. */
export function History({ client, onSignedOut }: Props) {
  const [status, setStatus] = useState<ListTasksQuery['status']>();
  const [model, setModel] = useState('');
  // The cursors of the pages before this one (the first page has none).
  const [cursors, setCursors] = useState<string[]>([]);
  const [page, setPage] = useState<{ items: TaskListItem[]; next: string | null }>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<TaskListItem>();
  const [reload, setReload] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    listTasks(
      client,
      {
        limit: PAGE_SIZE,
        include: 'input',
        ...(status ? { status } : {}),
        ...(model.trim() ? { model: model.trim() } : {}),
        ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
      },
      { signal: controller.signal },
    ).then(
      (answer) => setPage({ items: answer.items, next: answer.next_cursor }),
      (e: unknown) => {
        if (!controller.signal.aborted) showFailure(e, setError, onSignedOut);
      },
    );
    return () => controller.abort();
  }, [client, status, model, cursors, reload, onSignedOut]);

  const refilter = (apply: () => void) => {
    apply();
    setCursors([]);
  };

  if (open)
    return (
      <TaskDetail
        client={client}
        task={open}
        onClose={(deleted) => {
          setOpen(undefined);
          if (deleted) setReload((n) => n + 1);
        }}
      />
    );

  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <div className="filters">
        <label>
          Status
          <select
            value={status ?? ''}
            onChange={(e) =>
              refilter(() => setStatus((e.target.value || undefined) as ListTasksQuery['status']))
            }
          >
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Model (slug or its start)
          <input value={model} onChange={(e) => refilter(() => setModel(e.target.value))} />
        </label>
      </div>
      <ListState
        items={page?.items}
        error={error}
        onRetry={() => setReload((n) => n + 1)}
        loading="Loading tasks…"
        empty="No task matches."
      />
      {page && page.items.length > 0 && (
        <table className="tasks">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((task) => (
              <tr key={task.id}>
                <td>
                  <button className="link" onClick={() => setOpen(task)}>
                    {task.id.slice(0, 8)}
                  </button>
                </td>
                <td>
                  <code>{task.model}</code>
                </td>
                <td className={`status ${task.status}`}>
                  {task.status}
                  {task.status === 'failed' ? ` (${task.code})` : ''}
                </td>
                <td>{new Date(task.created_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages" className="pages">
        <button disabled={!cursors.length} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <button
          disabled={!page?.next}
          onClick={() => page?.next && setCursors((c) => [...c, page.next as string])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
