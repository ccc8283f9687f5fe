import type { Runtime } from '../runtime.js';
import type { CommandContext } from './context.js';

/** On SIGINT/SIGTERM: close the runtime and exit 0; a second signal exits at once with 1. */
export function exitOnSignal(ctx: CommandContext, runtime: Runtime): void {
  let closing = false;
  ctx.onSignal(async (signal) => {
    if (closing) {
      ctx.stderr(`explorer-server: ${signal} again, exiting without waiting`);
      ctx.exit(1);
      return;
    }
    closing = true;
    try {
      await runtime.close();
      ctx.exit(0);
    } catch (err) {
      ctx.stderr(`explorer-server: shutdown failed: ${(err as Error)?.message ?? err}`);
      ctx.exit(1);
    }
  });
}
