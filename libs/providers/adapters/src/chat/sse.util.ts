/**
 * The `data:` payloads of a server-sent event stream, one per event, in order
 * (multi-line data joined by "\n"; comments, `event:` and `id:` lines ignored).
 */
export async function* sseData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const lineOut = function* (line: string): Generator<string> {
    if (line === '') {
      if (data.length) yield data.join('\n');
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
  };
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n|\r/)) >= 0) {
      // A CR at the end may be half of a CRLF whose LF is in the next chunk.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
      buffer = buffer.slice(newline + width);
      yield* lineOut(line);
    }
  }
  yield* lineOut(buffer);
  yield* lineOut('');
}
