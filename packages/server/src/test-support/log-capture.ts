import { createLogger } from '../logger.js';

/** A logger that keeps its JSON lines for assertions. */
export function captureLog(level: 'debug' | 'info' = 'info') {
  const lines: string[] = [];
  const log = createLogger({ level, stream: { write: (s) => lines.push(s) } });
  const entries = () =>
    lines.map((l) => JSON.parse(l) as { level: string; msg: string } & Record<string, unknown>);
  return { log, lines, entries, messages: (msg: string) => entries().filter((e) => e.msg === msg) };
}
