import { MARKET_SETTINGS } from '@explorer/indexer';
import { Command } from 'commander';
import { registerCheck } from './commands/check.js';
import { type CommandContext, processContext } from './commands/context.js';
import { registerIndex } from './commands/index.js';
import { registerKeys } from './commands/keys.js';
import { registerMigrate } from './commands/migrate.js';
import { registerStart } from './commands/start.js';
import { registerWebhooks } from './commands/webhooks.js';
import { SETTINGS } from './config.js';
import { SERVER_VERSION } from './version.js';

/** The environment table shown under --help. */
export function environmentHelp(): string {
  const all: readonly { env: string; shown: string; description: string; flag?: string }[] = [
    ...SETTINGS,
    ...MARKET_SETTINGS,
  ];
  const width = Math.max(...all.map((s) => s.env.length));
  const lines = all.map(
    (s) =>
      `  ${s.env.padEnd(width)}  ${s.description} (default ${s.shown})${s.flag ? `; flag ${s.flag.split(' ')[0]}` : ''}`,
  );
  return `\nEnvironment (flags win over variables):\n${lines.join('\n')}\n`;
}

/**
 * Builds the `explorer-server` command line.
 * @example await createProgram().parseAsync(process.argv)
 */
export function createProgram(ctx: CommandContext = processContext()): Command {
  const program = new Command('explorer-server')
    .description('The explorer API server and indexer.')
    .version(SERVER_VERSION)
    .showHelpAfterError();
  registerStart(program, ctx);
  registerIndex(program, ctx);
  registerCheck(program, ctx);
  registerMigrate(program, ctx);
  registerKeys(program, ctx);
  registerWebhooks(program, ctx);
  program.addHelpText('after', environmentHelp());
  for (const command of program.commands) command.addHelpText('after', environmentHelp());
  return program;
}
