import type { Command } from 'commander';

/** The words one command completes to: its subcommands, the choices of its arguments, its long options. */
export interface CompletionEntry {
  name: string;
  words: string[];
}

/** What completes where: top-level commands, their words, global options, and option value choices. */
export interface CompletionModel {
  commands: CompletionEntry[];
  globalOptions: string[];
  /** `--window` → `24h 7d 30d all` … */
  optionChoices: Record<string, string[]>;
}

function longOptions(cmd: Command): string[] {
  return cmd.options.map((o) => o.long).filter((l): l is string => typeof l === 'string');
}

/** Reads the completion model off a commander program. */
export function completionModel(program: Command): CompletionModel {
  const optionChoices: Record<string, string[]> = {};
  const collectChoices = (cmd: Command) => {
    for (const o of cmd.options) if (o.long && o.argChoices) optionChoices[o.long] = [...o.argChoices];
    for (const sub of cmd.commands) collectChoices(sub);
  };
  collectChoices(program);
  const commands = program.commands.map((cmd) => {
    const words = new Set<string>();
    for (const sub of cmd.commands) {
      words.add(sub.name());
      for (const l of longOptions(sub)) words.add(l);
    }
    for (const arg of cmd.registeredArguments) for (const c of arg.argChoices ?? []) words.add(c);
    for (const l of longOptions(cmd)) words.add(l);
    words.add('--help');
    return { name: cmd.name(), words: [...words] };
  });
  return {
    commands,
    globalOptions: [...new Set([...longOptions(program), '--help', '--version'])],
    optionChoices,
  };
}

const safe = (w: string) => /^[A-Za-z0-9_.:-]+$/.test(w);
const list = (words: readonly string[]) => words.filter(safe).join(' ');

/**
 * A bash completion script (`source <(explorer completion bash)`).
 * @example bashCompletion(completionModel(program))
 */
export function bashCompletion(m: CompletionModel): string {
  const choices = Object.entries(m.optionChoices)
    .map(
      ([opt, values]) => `    ${opt}) COMPREPLY=( $(compgen -W "${list(values)}" -- "$cur") ); return 0 ;;`,
    )
    .join('\n');
  const cases = m.commands.map((c) => `    ${c.name}) words="${list(c.words)}" ;;`).join('\n');
  return `# bash completion for explorer (source <(explorer completion bash))
_explorer_complete() {
  local cur prev cmd words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${choices}
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${list(m.commands.map((c) => c.name))} ${list(m.globalOptions)}" -- "$cur") )
    return 0
  fi
  cmd="\${COMP_WORDS[1]}"
  words=""
  case "$cmd" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words ${list(m.globalOptions)}" -- "$cur") )
  return 0
}
complete -F _explorer_complete explorer
`;
}

/**
 * A zsh completion script (`source <(explorer completion zsh)` after compinit, or saved as `_explorer` in fpath).
 * @example zshCompletion(completionModel(program))
 */
export function zshCompletion(m: CompletionModel): string {
  const choices = Object.entries(m.optionChoices)
    .map(([opt, values]) => `    ${opt}) compadd -- ${list(values)}; return ;;`)
    .join('\n');
  const cases = m.commands
    .map((c) => `    ${c.name}) compadd -- ${list(c.words)} ${list(m.globalOptions)} ;;`)
    .join('\n');
  return `#compdef explorer
# zsh completion for explorer (source <(explorer completion zsh) after compinit)
_explorer() {
  case "\${words[CURRENT-1]}" in
${choices}
  esac
  if (( CURRENT == 2 )); then
    compadd -- ${list(m.commands.map((c) => c.name))} ${list(m.globalOptions)}
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _explorer explorer
`;
}
