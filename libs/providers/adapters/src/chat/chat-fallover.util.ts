import { ChatBackendError, ChatChunk, ChatCompletion, ChatRequest } from './chat-backend.util';
import type { ChatCatalogue, ChatRoute } from './chat-catalogue.service';

export interface RoutedCompletion {
  route: ChatRoute;
  completion: ChatCompletion;
}

export interface RoutedStream {
  route: ChatRoute;
  /** The whole stream, its first chunk included (already received). */
  chunks: AsyncIterable<ChatChunk>;
}

/** Tries `attempt` on each route in order while failures are transient; rethrows the last one. */
async function overRoutes<T>(
  routes: ChatRoute[],
  signal: AbortSignal,
  attempt: (route: ChatRoute) => Promise<T>,
): Promise<T> {
  let last: unknown = new ChatBackendError('transient', 'no route');
  for (const route of routes) {
    if (signal.aborted) throw new ChatBackendError('aborted', 'client went away');
    try {
      return await attempt(route);
    } catch (error) {
      if (!(error instanceof ChatBackendError) || !error.transient) throw error;
      last = error;
    }
  }
  throw last;
}

export function completeOverRoutes(
  catalogue: ChatCatalogue,
  routes: ChatRoute[],
  request: ChatRequest,
  signal: AbortSignal,
): Promise<RoutedCompletion> {
  return overRoutes(routes, signal, async (route) => ({
    route,
    completion: await catalogue
      .backend(route)
      .complete(request, { signal, upstreamModel: route.upstreamModel }),
  }));
}

/**
 * Opens a stream on the first route that delivers its first chunk. A
 * transient failure before that byte falls over to the next route; after it
 * the stream is committed to its route (the client has seen output).
 */
export function streamOverRoutes(
  catalogue: ChatCatalogue,
  routes: ChatRoute[],
  request: ChatRequest,
  signal: AbortSignal,
): Promise<RoutedStream> {
  return overRoutes(routes, signal, async (route) => {
    const iterator = catalogue
      .backend(route)
      .stream(request, { signal, upstreamModel: route.upstreamModel })
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    async function* chunks(): AsyncGenerator<ChatChunk> {
      try {
        if (first.done) return;
        yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next())
          yield next.value;
      } finally {
        // A consumer that stops early (client gone) closes the backend's stream too.
        await iterator.return?.();
      }
    }
    return { route, chunks: chunks() };
  });
}
