import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (s: string) => lines.push(s) } };
}

describe('createLogger', () => {
  it('writes one JSON object per line with time, level, msg and fields', () => {
    const { lines, stream } = capture();
    const log = createLogger({ level: 'info', stream, clock: () => 0 });
    log.info({ port: 3000 }, 'listening');
    expect(lines).toEqual([
      '{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"listening","port":3000}\n',
    ]);
  });

  it('drops lines below the level, and everything when silent', () => {
    const { lines, stream } = capture();
    const log = createLogger({ level: 'warn', stream });
    log.debug({}, 'a');
    log.info({}, 'b');
    log.warn({}, 'c');
    log.error({}, 'd');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['c', 'd']);
    const quiet = capture();
    createLogger({ level: 'silent', stream: quiet.stream }).error({}, 'x');
    expect(quiet.lines).toEqual([]);
  });

  it('serialises errors and survives circular fields', () => {
    const { lines, stream } = capture();
    const log = createLogger({ stream });
    log.error({ err: new TypeError('boom') }, 'failed');
    expect(JSON.parse(lines[0]!).err).toEqual({ name: 'TypeError', message: 'boom' });
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    log.info({ loop }, 'odd');
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: 'odd', logError: 'unserialisable fields' });
  });
});
