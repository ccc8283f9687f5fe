import { Command } from 'commander';
import { registerCheck } from './commands/check.js';
import { type CommandContext, processContext } from './commands/context.js';
import { registerIndex } from './commands/index.js';
import { registerKeys } from './commands/keys.js';
import { registerMigrate } from './commands/migrate.js';
import { registerStart } from './commands/start.js';
import { registerWebhooks } from './commands/webhooks.js';
import { environmentHelp } from './config/docs.js';
import { SERVER_VERSION } from './version.js';

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
