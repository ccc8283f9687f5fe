import type { Command } from 'commander';
import { settingOption } from '../config/docs.js';
import { createRuntime } from '../runtime/index.js';
import { type CommandContext, configOrExit, failed, progressOutput } from './context.js';
import { exitOnFatal, exitOnSignal } from './shutdown.js';

/**
 * Registers `index`: the indexer alone, no HTTP (pairs with API replicas started with --no-index).
 * @example registerIndex(program, processContext())
 */
export function registerIndex(program: Command, ctx: CommandContext): void {
  program
    .command('index')
    .description('run only the indexer (no HTTP server)')
    .option(...settingOption('dataDir'))
    .option(...settingOption('logLevel'))
    .action(async (flags: { dataDir?: string; logLevel?: string }) => {
      const config = configOrExit(ctx, { ...flags, index: true });
      if (!config) return;
      try {
        const fatal = exitOnFatal(ctx, 'index');
        const runtime = await createRuntime(config, {
          http: false,
          command: 'explorer-server index',
          onFatal: fatal.onFatal,
          progress: progressOutput(ctx, config),
        });
        // With no server socket, nothing else is guaranteed to keep the event loop alive between polls.
        const keepAlive = setInterval(() => {}, 1 << 30);
        const running = {
          ...runtime,
          close: async () => {
            clearInterval(keepAlive);
            await runtime.close();
          },
        };
        fatal.attach(running);
        exitOnSignal(ctx, running);
        ctx.stdout(`explorer indexer running (${runtime.summary})`);
      } catch (err) {
        failed(ctx, 'index', err);
      }
    });
}
