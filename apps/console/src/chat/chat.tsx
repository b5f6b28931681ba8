import {
  type ChatCompletionUsage,
  type ChatMessage,
  chatCompletionStream,
} from '@genhub/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { dataOf } from '../common/api-error.util';
import { Failure, LoadFailed } from '../common/failure';
import { useSession } from '../session/session';

/** A message of this page: always plain text. */
type Message = ChatMessage & { content: string };

/** A conversation with one of the chat models, the answer streamed as it is written. */
export function Chat() {
  const { client } = useSession();
  const listing = useQuery({
    queryKey: ['chat-models'],
    queryFn: async ({ signal }) =>
      dataOf(await client.GET('/v1/models', { signal })).data.map((m) => m.id),
  });
  const models = listing.data;
  const [chosen, setChosen] = useState('');
  // Until one is chosen, the first the server lists.
  const model = chosen || models?.[0] || '';
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState('');
  const [answer, setAnswer] = useState<string>();
  const [usage, setUsage] = useState<ChatCompletionUsage>();
  const streaming = useRef<AbortController | undefined>(undefined);

  // A streaming answer stops when the page closes.
  useEffect(() => () => streaming.current?.abort(), []);

  const ask = useMutation({
    /** Streams the answer to `conversation`; stopped by the user, it keeps what was written. */
    mutationFn: async (conversation: Message[]) => {
      const controller = new AbortController();
      streaming.current = controller;
      let text = '';
      setAnswer('');
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
      } catch (e) {
        if (!controller.signal.aborted) throw e;
        return { text, stopped: true };
      } finally {
        setAnswer(undefined);
        streaming.current = undefined;
      }
      return { text, stopped: false };
    },
    onSuccess: ({ text, stopped }, conversation) => {
      if (text || !stopped) setMessages([...conversation, { role: 'assistant', content: text }]);
    },
    onError: (_error, conversation) => {
      // The question goes back in the box to send again.
      setMessages(conversation.slice(0, -1));
      setDraft(conversation[conversation.length - 1].content);
    },
  });

  function send(event: FormEvent) {
    event.preventDefault();
    const content = draft.trim();
    if (!content || answer !== undefined) return;
    const conversation: Message[] = [...messages, { role: 'user', content }];
    setMessages(conversation);
    setDraft('');
    setUsage(undefined);
    ask.mutate(conversation);
  }

  if (listing.error)
    return <LoadFailed error={listing.error} onRetry={() => void listing.refetch()} />;
  if (!models) return <p aria-busy="true">Loading chat models…</p>;
  if (!models.length) return <p>No chat models are available.</p>;

  return (
    <section className="chat" aria-labelledby="chat-title">
      <h2 id="chat-title">Chat</h2>
      <div className="actions">
        <label>
          Model
          <select value={model} onChange={(e) => setChosen(e.target.value)}>
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
        <Failure error={ask.error} />
      </form>
    </section>
  );
}
