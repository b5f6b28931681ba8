/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Falsy = undefined | null | false;

export interface UntilOptions {
  /** How long to wait before throwing (default 5000 ms). */
  ms?: number;
  /** How long to sleep between two checks (default 25 ms). */
  every?: number;
  /** What is awaited, for the time-out's message. */
  what?: string;
}

/**
 * Calls `check` (sync or async) every `every` ms until it yields a truthy value,
 * which it returns; throws after `ms`. A number for `options` is `ms`.
 */
export async function until<T>(
  check: () => T | Falsy | Promise<T | Falsy>,
  options: number | UntilOptions = {},
): Promise<T> {
  const { ms = 5000, every = 25, what } = typeof options === 'number' ? { ms: options } : options;
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end)
      throw new Error(`timed out waiting${what ? ` for ${what}` : ''} (${ms} ms)`);
    await sleep(every);
  }
}
