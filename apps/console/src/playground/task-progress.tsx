import type { Prediction, TaskStatus } from '@genhub/contracts';
import { OutputView } from './output-view';

export interface Progress {
  id: string;
  status: TaskStatus | 'deleted';
  queuePosition?: number;
  task?: Prediction;
}

/** The submitted task, live: its status, its place in the queue, then its outputs or its error. */
export function TaskProgress({ progress }: { progress: Progress }) {
  const { status, queuePosition, task } = progress;
  return (
    <section className="progress" aria-live="polite" aria-labelledby="progress-title">
      <h2 id="progress-title">
        Task <code>{progress.id}</code>: <span className={`status ${status}`}>{status}</span>
      </h2>
      {status === 'created' && queuePosition !== undefined && (
        <p>
          {queuePosition === 0
            ? 'Next in the queue.'
            : `${queuePosition} task(s) ahead in the queue.`}
        </p>
      )}
      {status === 'failed' && task && (
        <p role="alert" className="error">
          Failed with code {task.code}: {task.error}
        </p>
      )}
      {status === 'completed' && task && (
        <div className="outputs">
          {task.outputs.length === 0 && <p>No outputs.</p>}
          {task.outputs.map((url, index) => (
            <OutputView key={url} url={url} index={index} />
          ))}
        </div>
      )}
    </section>
  );
}
