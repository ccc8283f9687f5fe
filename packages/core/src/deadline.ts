/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

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
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIMER_MS)
    throw new RangeError(`a deadline takes whole milliseconds from 0 to ${MAX_TIMER_MS}, not ${ms}`);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clear = () => {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onAbort);
  };
  function onAbort() {
    clear();
    controller.abort(parent?.reason);
  }
  if (parent?.aborted) controller.abort(parent.reason);
  else {
    parent?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => {
      clear();
      controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError'));
    }, ms);
    timer.unref?.();
  }
  return { signal: controller.signal, clear };
}
