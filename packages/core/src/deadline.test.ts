import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { deadline } from './deadline.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const abortReason = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));

describe('deadline', () => {
  it('aborts with a TimeoutError when the time is up, garbage collections between', async () => {
    const parent = new AbortController();
    const { signal } = deadline(20, parent.signal);
    const reason = abortReason(signal);
    gc();
    gc();
    expect(await reason).toMatchObject({ name: 'TimeoutError' });
    // The parent is let go of once the deadline has passed: its abort changes nothing.
    parent.abort(new Error('later'));
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('refuses a delay a timer cannot keep', () => {
    for (const ms of [-1, 1.5, Number.NaN, 2 ** 31]) expect(() => deadline(ms)).toThrow(RangeError);
  });

  it("aborts with the parent's reason as soon as the parent aborts", async () => {
    const parent = new AbortController();
    const d = deadline(60_000, parent.signal);
    const reason = abortReason(d.signal);
    parent.abort(new Error('stopping'));
    expect(await reason).toMatchObject({ message: 'stopping' });
    // A parent that was aborted already aborts it at once, with no timer started.
    const late = deadline(60_000, parent.signal);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toMatchObject({ message: 'stopping' });
  });

  it('never aborts once cleared, and lets go of the parent', async () => {
    const parent = new AbortController();
    const d = deadline(1, parent.signal);
    d.clear();
    // A later deadline that did fire proves the cleared one's time had come too.
    const later = deadline(5);
    await abortReason(later.signal);
    parent.abort();
    expect(d.signal.aborted).toBe(false);
  });
});
