import { listTasks, type ListTasksQuery, type TaskListItem } from '@genhub/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListState } from '../common/failure';
import { TASK_STATUSES } from '../common/task-statuses';
import { useSession } from '../session/session';
import { TaskDetail } from './task-detail';

const PAGE_SIZE = 20;

/** The caller's tasks, newest first, filtered and paged; a task opens its detail. */
export function History() {
  const { client } = useSession();
  const [status, setStatus] = useState<ListTasksQuery['status']>();
  const [model, setModel] = useState('');
  // The cursors of the pages before this one (the first page has none).
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<TaskListItem>();

  const query: ListTasksQuery = {
    limit: PAGE_SIZE,
    include: 'input',
    ...(status ? { status } : {}),
    ...(model.trim() ? { model: model.trim() } : {}),
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
  };
  const tasks = useQuery({
    queryKey: ['tasks', 'list', query],
    queryFn: ({ signal }) => listTasks(client, query, { signal }),
    // A new filter or page keeps the rows shown until its own arrive.
    placeholderData: keepPreviousData,
  });
  const page = tasks.data && { items: tasks.data.items, next: tasks.data.next_cursor };

  const refilter = (apply: () => void) => {
    apply();
    setCursors([]);
  };

  if (open) return <TaskDetail task={open} onClose={() => setOpen(undefined)} />;

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
            {TASK_STATUSES.map((s) => (
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
        error={tasks.error}
        onRetry={() => void tasks.refetch()}
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
