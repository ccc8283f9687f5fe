import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs a full garbage collection now, without `--expose-gc` on the command line: for tests of what must
 * survive the collector (a chain of abort signals, a stream held only weakly).
 * @example await collectGarbage()
 */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Twice around a turn of the event loop: weak references cleared in one pass are finalized in the next.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}
