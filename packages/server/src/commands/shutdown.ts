import type { Runtime } from '../runtime.js';
import type { CommandContext } from './context.js';

/**
 * On SIGINT/SIGTERM: say so, close the runtime (requests drain, the indexer finishes the batch it is writing)
 * and exit 0; a second signal exits at once with 1.
 */
export function exitOnSignal(ctx: CommandContext, runtime: Runtime): void {
  let closing = false;
  ctx.onSignal(async (signal) => {
    if (closing) {
      ctx.stderr(`explorer-server: ${signal} again, exiting without waiting`);
      ctx.exit(1);
      return;
    }
    closing = true;
    ctx.stderr(`explorer-server: ${signal}: stopping (${signal} again to exit without waiting)`);
    try {
      await runtime.close();
      ctx.stderr('explorer-server: stopped');
      ctx.exit(0);
    } catch (err) {
      ctx.stderr(`explorer-server: shutdown failed: ${(err as Error)?.message ?? err}`);
      ctx.exit(1);
    }
  });
}
