/**
 * Resolves after `ms` milliseconds, or at once when `signal` aborts (the loops' waits between polls).
 * @example await sleep(1_000, abort.signal)
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}
