export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 25 ms until it yields a truthy value, which it returns; throws after `ms`. */
export async function until<T>(
  check: () => Promise<T | undefined | null | false>,
  ms = 5000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting (${ms} ms)`);
    await sleep(25);
  }
}
