import { isatty } from 'node:tty';
import { DirectoryLockedError, RebuildRequiredError } from '@explorer/db';
import { ChainProfileError } from '@explorer/indexer';
import type { ConfigFlags } from '../config/index.js';
import { ConfigError, loadConfig, type ServerConfig } from '../config/index.js';
import { unknownVariables } from '../config/unknown.js';
import { dataDirProblem } from '../runtime/index.js';

/** What commands touch outside themselves; bin.ts passes the real process, tests pass fakes. */
export interface CommandContext {
  env: Record<string, string | undefined>;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  exit: (code: number) => void;
  /** Registers a handler for SIGINT/SIGTERM. */
  onSignal: (handler: (signal: string) => void) => void;
  /** True when stderr is a terminal: a person is watching. */
  terminal?: boolean;
}

/** The real process as a CommandContext. */
export function processContext(): CommandContext {
  return {
    env: process.env,
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
    onSignal: (handler) => {
      process.on('SIGINT', () => handler('SIGINT'));
      process.on('SIGTERM', () => handler('SIGTERM'));
    },
    // fd 2 itself: on the thread a capped command runs on, process.stderr is a stream to the main thread's.
    terminal: isatty(2),
  };
}

/**
 * Where a command writes the sync's progress for a person: stderr when it is a terminal and the log's level
 * hides the indexer's own progress lines (`warn`, `error`: what `npm start` runs at); nowhere otherwise.
 */
export function progressOutput(
  ctx: CommandContext,
  config: ServerConfig,
): ((line: string) => void) | undefined {
  const hidden = config.logLevel === 'warn' || config.logLevel === 'error';
  return ctx.terminal && hidden ? ctx.stderr : undefined;
}

/**
 * Loads the configuration, or reports the one-line problem and exits with 2. Variables that look meant for
 * the server but are no setting are reported first, one warning line each.
 */
export function configOrExit(ctx: CommandContext, flags: ConfigFlags): ServerConfig | null {
  for (const line of unknownVariables(ctx.env)) ctx.stderr(line);
  try {
    return loadConfig(ctx.env, flags);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    ctx.stderr(err.message);
    ctx.exit(2);
    return null;
  }
}

/**
 * Reports a startup failure as one line (no stack: operators need the cause, not our call graph), and exits
 * with 1; with 2, as a configuration error does, when the operator has to agree to a rebuild of the index or
 * the database holds another chain than the node's.
 */
export function failed(ctx: CommandContext, what: string, err: unknown): void {
  const message =
    err instanceof DirectoryLockedError
      ? dataDirProblem(err)
      : err instanceof Error
        ? err.message
        : String(err);
  ctx.stderr(`explorer-server: ${what} failed: ${message.split('\n')[0]}`);
  ctx.exit(err instanceof RebuildRequiredError || err instanceof ChainProfileError ? 2 : 1);
}
