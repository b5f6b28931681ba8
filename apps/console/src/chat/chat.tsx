import {
  type ChatCompletionUsage,
  type ChatMessage,
  chatCompletionStream,
  type GenhubClient,
} from '@genhub/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { dataOf } from '../common/api-error.util';
import { LoadFailed, showFailure } from '../common/failure';

/** A message of this page: always plain text. */
type Message = ChatMessage & { content: string };

interface Props {
  client: GenhubClient;
  onSignedOut(message: string): void;
}

/** A conversation with one of the chat models, the answer streamed as it is written. */
export function Chat({ client, onSignedOut }: Props) {
  const [models, setModels] = useState<string[]>();
  const [loadError, setLoadError] = useState<string>();
  const [model, setModel] = useState('');
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState('');
  const [answer, setAnswer] = useState<string>();
  const [usage, setUsage] = useState<ChatCompletionUsage>();
  const [error, setError] = useState<string>();
  const streaming = useRef<AbortController | undefined>(undefined);

  const fail = (e: unknown, show: (message: string) => void) => showFailure(e, show, onSignedOut);

  async function loadModels() {
    setLoadError(undefined);
    try {
      const data = dataOf(await client.GET('/v1/models'));
      const ids = data.data.map((m) => m.id);
      setModels(ids);
      setModel((current) => current || ids[0] || '');
    } catch (e) {
      fail(e, setLoadError);
    }
  }

  useEffect(() => {
    void loadModels();
    return () => streaming.current?.abort();
  }, [client]);

  async function send(event: FormEvent) {
    event.preventDefault();
    const content = draft.trim();
    if (!content || answer !== undefined) return;
    const conversation: Message[] = [...messages, { role: 'user', content }];
    setMessages(conversation);
    setDraft('');
    setError(undefined);
    setUsage(undefined);
    setAnswer('');
    const controller = new AbortController();
    streaming.current = controller;
    let text = '';
    try {
      for await (const chunk of chatCompletionStream(
        client,
        { model, messages: conversation, stream_options: { include_usage: true } },
        { signal: controller.signal },
      )) {
        text += chunk.choices[0]?.delta.content ?? '';
        setAnswer(text);
        if (chunk.usage) setUsage(chunk.usage);
      }
      setMessages([...conversation, { role: 'assistant', content: text }]);
    } catch (e) {
      if (controller.signal.aborted) {
        // Stopped by the user: keep what was written so far.
        if (text) setMessages([...conversation, { role: 'assistant', content: text }]);
      } else {
        // The question stays in the box to send again.
        setMessages(messages);
        setDraft(content);
        fail(e, setError);
      }
    } finally {
      setAnswer(undefined);
      streaming.current = undefined;
    }
  }

  if (loadError) return <LoadFailed message={loadError} onRetry={() => void loadModels()} />;
  if (!models) return <p aria-busy="true">Loading chat models…</p>;
  if (!models.length) return <p>No chat models are available.</p>;

  return (
    <section className="chat" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat</h2>
      <div className="actions">
        <label>
          Model
          <select value={model} onChange={(e) => setModel(e.target.value)}>
            {models.map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!messages.length || answer !== undefined}
          onClick={() => {
            setMessages([]);
            setUsage(undefined);
          }}
        >
          New conversation
        </button>
      </div>
      <ol className="messages" aria-label="Conversation">
        {messages.map((m, index) => (
          <li key={index} className={m.role}>
            <strong>{m.role === 'user' ? 'You' : 'Assistant'}</strong>
            <p>{m.content}</p>
          </li>
        ))}
        {answer !== undefined && (
          <li className="assistant" aria-live="polite" aria-busy="true">
            <strong>Assistant</strong>
            <p>{answer || '…'}</p>
          </li>
        )}
        {!messages.length && answer === undefined && <li className="empty">No messages yet.</li>}
      </ol>
      {usage && (
        <p className="usage">
          Last answer: {usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens
        </p>
      )}
      <form onSubmit={send} className="compose">
        <label htmlFor="chat-message">Message</label>
        <textarea
          id="chat-message"
          rows={3}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter starts a new line (as chat apps do).
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        {answer === undefined ? (
          <button type="submit" disabled={!draft.trim()}>
            Send
          </button>
        ) : (
          <button type="button" onClick={() => streaming.current?.abort()}>
            Stop
          </button>
        )}
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
