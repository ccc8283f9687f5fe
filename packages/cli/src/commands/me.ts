import type { Command } from 'commander';
import { type CliIo, contextOf } from '../context.js';
import { showOne, withExamples } from '../run.js';

/**
 * `explorer me`: who the API thinks you are (anonymous or your key) and your rate-limit bucket.
 * @example EXPLORER_API_KEY=… explorer me
 */
export function meCommand(program: Command, io: CliIo): Command {
  const cmd = program.command('me').description('your identity and rate-limit bucket');
  withExamples(cmd, 'explorer me', 'EXPLORER_API_KEY=ek_… explorer me --json');
  return cmd.action(async (_o: unknown, c: Command) => {
    const ctx = contextOf(c, io);
    await showOne(ctx, ctx.client.me());
  });
}
