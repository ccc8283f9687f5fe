import type { Logger } from '@explorer/core';

/** Log levels, quietest last; `silent` drops everything. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** One of the log levels. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where log lines go: anything with a write(string). */
export interface LogStream {
  write(line: string): unknown;
}

/** Options of createLogger. */
export interface LoggerOptions {
  /** Lowest level written (default info). */
  level?: LogLevel;
  /** Destination of the JSON lines (default process.stdout). */
  stream?: LogStream;
  /** Milliseconds since the epoch (tests pin it). */
  clock?: () => number;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

// Errors serialise to {} by default, which would hide exactly what an operator needs.
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    if (value.cause !== undefined) out.cause = value.cause;
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * Creates a logger writing one JSON object per line: `{ time, level, msg, …fields }`.
 * @example const log = createLogger({ level: 'info' }); log.info({ port: 3000 }, 'listening')
 */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const min = RANK[opts.level ?? 'info'];
  const stream = opts.stream ?? process.stdout;
  const clock = opts.clock ?? Date.now;
  const write = (level: Exclude<LogLevel, 'silent'>, fields: Record<string, unknown>, msg: string) => {
    if (RANK[level] < min) return;
    let line: string;
    try {
      line = JSON.stringify({ time: new Date(clock()).toISOString(), level, msg, ...fields }, replacer);
    } catch {
      // A circular or hostile field must not turn logging into a crash.
      line = JSON.stringify({
        time: new Date(clock()).toISOString(),
        level,
        msg,
        logError: 'unserialisable fields',
      });
    }
    stream.write(`${line}\n`);
  };
  return {
    debug: (fields, msg) => write('debug', fields, msg),
    info: (fields, msg) => write('info', fields, msg),
    warn: (fields, msg) => write('warn', fields, msg),
    error: (fields, msg) => write('error', fields, msg),
  };
}
