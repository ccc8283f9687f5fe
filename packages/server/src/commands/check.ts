import type { Command } from 'commander';
import { preflight, usesDataDir } from '../runtime/index.js';
import { type CommandContext, configOrExit } from './context.js';
import { type StartFlags, withStartOptions } from './start.js';

/**
 * Registers `check`: with the flags of `start`, says whether a start would be refused at once (the data dir
 * held by another process, the port in use) without starting, building or writing anything. `npm start` runs
 * it before it builds.
 * @example registerCheck(program, processContext())
 */
export function registerCheck(program: Command, ctx: CommandContext): void {
  withStartOptions(
    program
      .command('check')
      .description(
        'check that `start` with these flags could begin (configuration, data dir, port), then exit',
      ),
  )
    .option('--quiet', 'print nothing when the start could begin')
    .action(async (flags: StartFlags & { quiet?: boolean }) => {
      const { quiet, ...startFlags } = flags;
      const config = configOrExit(ctx, startFlags);
      if (!config) return;
      const problem = await preflight(config);
      if (problem) {
        ctx.stderr(`explorer-server: ${problem}`);
        ctx.exit(1);
        return;
      }
      if (!quiet) {
        const dataDir = usesDataDir(config) ? ` and the data dir ${config.dataDir} is free` : '';
        ctx.stdout(`ok: ${config.host}:${config.port} is free${dataDir}`);
      }
      ctx.exit(0);
    });
}
