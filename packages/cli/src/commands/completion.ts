import { Argument, type Command } from 'commander';
import { bashCompletion, completionModel, zshCompletion } from '../completion-script.js';
import type { CliIo } from '../context.js';
import { withExamples } from '../run.js';

/**
 * `explorer completion bash|zsh`: prints a shell completion script.
 * @example source <(explorer completion bash)
 */
export function completionCommand(program: Command, io: CliIo): Command {
  const cmd = program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']));
  withExamples(
    cmd,
    'source <(explorer completion bash)   # in ~/.bashrc',
    'source <(explorer completion zsh)    # in ~/.zshrc, after compinit',
  );
  return cmd.action((shell: string) => {
    const model = completionModel(program);
    io.stdout.write(shell === 'zsh' ? zshCompletion(model) : bashCompletion(model));
  });
}
