/** A signal with a deadline, and the way to end its timer once the work is done. */
export interface Deadline {
  signal: AbortSignal;
  /** Ends the timer and lets go of the parent signal; call it when the work is done, aborted or not. */
  clear(): void;
}

/**
 * A signal that aborts with a `TimeoutError` after `ms`, or as soon as `parent` aborts (with its reason).
 * Instead of `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: on Node 20 a composite signal holds its
 * sources weakly and a timeout signal's timer is cleared when the signal is collected, so a garbage collection
 * between the start and the deadline can drop the timeout, and the deadline never comes. Here the timer holds
 * the signal until `clear()`.
 * @example const d = deadline(5_000, stop.signal); try { await fetch(url, { signal: d.signal }) } finally { d.clear() }
 */
export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError')),
    ms,
  );
  timer.unref?.();
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}
