/** The structured logger every package writes to (the server passes its JSON logger; embedders their own). */
export interface Logger {
  debug(fields: Record<string, unknown>, msg: string): void;
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

/** A logger that drops everything (tests, embedding). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
