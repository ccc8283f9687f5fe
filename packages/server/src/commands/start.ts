import type { Command } from 'commander';
import { createRuntime } from '../runtime.js';
import { type CommandContext, configOrExit, failed } from './context.js';
import { exitOnSignal } from './shutdown.js';

/** Options `start` takes on the command line. */
export interface StartFlags {
  port?: string;
  host?: string;
  dataDir?: string;
  logLevel?: string;
  trustProxy?: boolean;
  index?: boolean;
}

/**
 * Adds the options of `start` to a command (`start` itself, and `check`, which takes the same).
 * @example withStartOptions(program.command('check'))
 */
export function withStartOptions(command: Command): Command {
  return command
    .option('--port <n>', 'HTTP port, 0 for a free one (env PORT, default 3000)')
    .option('--host <address>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option(
      '--data-dir <dir>',
      'embedded database and devnet files (env EXPLORER_DATA_DIR, default ./.explorer)',
    )
    .option('--log-level <level>', 'debug|info|warn|error|silent (env LOG_LEVEL, default info)')
    .option('--trust-proxy', 'take the client address from X-Forwarded-For (env TRUST_PROXY, default false)')
    .option('--no-index', 'serve only; another process runs `explorer-server index`');
}

/**
 * Registers `start`: the API, and the indexer unless --no-index, in one process.
 * @example registerStart(program, processContext())
 */
export function registerStart(program: Command, ctx: CommandContext): void {
  withStartOptions(
    program.command('start').description('serve the API (and run the indexer unless --no-index)'),
  ).action(async (flags: StartFlags) => {
    const config = configOrExit(ctx, flags);
    if (!config) return;
    try {
      const runtime = await createRuntime(config, { command: 'explorer-server start' });
      exitOnSignal(ctx, runtime);
      ctx.stdout(`explorer listening on ${runtime.url} (${runtime.summary})`);
    } catch (err) {
      failed(ctx, 'start', err);
    }
  });
}
