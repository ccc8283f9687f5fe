import type { Logger } from '@explorer/core';

/** Something to release on close. */
export type Closer = () => Promise<void> | void;

/**
 * What a runtime releases on close, in order: the live subscribers (event streams, sockets, the metrics
 * listener), which never finish on their own; then the HTTP server, which drains its requests while the
 * database is still open; then everything else, last opened first, so that a start failing halfway leaves
 * nothing running.
 */
export interface Shutdown {
  /** Released after the HTTP server, in reverse order of adding. */
  add(close: Closer): void;
  /** Released before the HTTP server, in order of adding. */
  beforeHttp(close: Closer): void;
  /** The HTTP server, bound first but closed after the live subscribers. */
  http(close: Closer): void;
  /** Releases everything added so far; an error is logged and the rest is still released. */
  closeAll(): Promise<void>;
}

export function createShutdown(log: Logger): Shutdown {
  const closers: Closer[] = [];
  const before: Closer[] = [];
  let http: Closer | null = null;
  return {
    add: (close) => void closers.push(close),
    beforeHttp: (close) => void before.push(close),
    http: (close) => {
      http = close;
    },
    async closeAll() {
      const first = http ? [...before.splice(0), http] : before.splice(0);
      http = null;
      for (const close of [...first, ...closers.splice(0).reverse()]) {
        try {
          await close();
        } catch (err) {
          log.warn({ err }, 'error while shutting down');
        }
      }
    },
  };
}
