import cliProgress from 'cli-progress';
import type { CommandContext } from './context.js';

/** Rows fetched so far, drawn on stderr while `--all` runs. */
export interface Progress {
  /** Clears the bar's line, so rows written to the same terminal do not mix with it. */
  clear(): void;
  /** Counts a page. */
  add(rows: number): void;
  stop(): void;
}

const NONE: Progress = { clear() {}, add() {}, stop() {} };

/**
 * A progress line on stderr, only when stderr is a terminal (never in pipes, logs or tests).
 * @example const p = createProgress(ctx, 500); p.add(100); p.stop();
 */
export function createProgress(ctx: CommandContext, max: number | undefined): Progress {
  if (!ctx.progress) return NONE;
  const stream = ctx.io.stderr as NodeJS.WriteStream;
  const bar = new cliProgress.SingleBar({
    stream,
    format:
      max === undefined ? 'fetched {value} rows, {pages} pages' : '{bar} {value}/{total} rows, {pages} pages',
    hideCursor: false,
    clearOnComplete: true,
    forceRedraw: true,
    fps: 10,
  });
  let rows = 0;
  let pages = 0;
  bar.start(max ?? 0, 0, { pages });
  return {
    clear() {
      stream.write('\r\x1b[2K');
    },
    add(n) {
      rows += n;
      pages += 1;
      bar.update(rows, { pages });
    },
    stop() {
      bar.stop();
    },
  };
}
