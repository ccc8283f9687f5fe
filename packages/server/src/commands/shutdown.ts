import type { Runtime } from '../runtime/index.js';
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

/**
 * For a runtime's `onFatal`: once the indexer stopped for good (a database of another chain), say why in one
 * line, close the runtime and exit with 2, as a configuration error does: a supervisor's restart cannot help.
 * @example const fatal = exitOnFatal(ctx, 'start'); const rt = await createRuntime(config, { onFatal: fatal.onFatal }); fatal.attach(rt)
 */
export function exitOnFatal(ctx: CommandContext, what: string) {
  let runtime: Runtime | null = null;
  let pending: Error | null = null;
  let done = false;
  const stop = async (err: Error) => {
    if (done) return;
    done = true;
    ctx.stderr(`explorer-server: ${what} stopped: ${err.message.split('\n')[0]}`);
    try {
      await runtime?.close();
    } catch (closeErr) {
      ctx.stderr(`explorer-server: shutdown failed: ${(closeErr as Error)?.message ?? closeErr}`);
    }
    ctx.exit(2);
  };
  return {
    onFatal: (err: Error) => {
      if (runtime) void stop(err);
      else pending = err;
    },
    /** The runtime to close; a failure reported before it existed is acted on now. */
    attach: (rt: Runtime) => {
      runtime = rt;
      if (pending) void stop(pending);
    },
  };
}
