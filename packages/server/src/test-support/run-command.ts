import type { CommandContext } from '../commands/context.js';
import { createProgram } from '../program.js';

/** What an `explorer-server` command printed, line by line, and the exit codes it asked for. */
export interface CommandRun {
  out: string[];
  err: string[];
  exits: number[];
}

/**
 * Runs `explorer-server <args>` in this process with `env` as its environment, capturing what it prints and
 * the exit codes it asks for instead of exiting.
 */
export async function runCommand(args: string[], env: Record<string, string>): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const exits: number[] = [];
  const ctx: CommandContext = {
    env,
    stdout: (l) => out.push(l),
    stderr: (l) => err.push(l),
    exit: (code) => exits.push(code),
    onSignal: () => {},
  };
  await createProgram(ctx).parseAsync(['node', 'explorer-server', ...args]);
  return { out, err, exits };
}
