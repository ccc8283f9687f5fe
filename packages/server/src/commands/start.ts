import type { Command } from 'commander';
import { settingOption } from '../config/docs.js';
import { createRuntime } from '../runtime/index.js';
import { type CommandContext, configOrExit, failed, progressOutput } from './context.js';
import { exitOnFatal, exitOnSignal } from './shutdown.js';

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
    .option(...settingOption('port'))
    .option(...settingOption('host'))
    .option(...settingOption('dataDir'))
    .option(...settingOption('logLevel'))
    .option(...settingOption('trustProxy'))
    .option(...settingOption('index'));
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
      const fatal = exitOnFatal(ctx, 'start');
      const runtime = await createRuntime(config, {
        command: 'explorer-server start',
        onFatal: fatal.onFatal,
        progress: progressOutput(ctx, config),
      });
      fatal.attach(runtime);
      exitOnSignal(ctx, runtime);
      ctx.stdout(`explorer listening on ${runtime.url} (${runtime.summary})`);
    } catch (err) {
      failed(ctx, 'start', err);
    }
  });
}
