import { createServer, type Server, connect as tcpConnect } from 'node:net';
import { pgSkipReason, scratchDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../test-support/run-command.js';

// DB_PREPARED_STATEMENTS=false exists for PgBouncer's transaction pooling, where a statement prepared on one
// server connection is unknown on the next: every process that connects must honour it, the operator commands as
// much as the server. Checked on the wire: a proxy in front of PostgreSQL reads the name of every statement the
// command's Parse messages ask PostgreSQL to prepare ('' is the unnamed statement, which lives for one query).

const skip = pgSkipReason();
if (skip) console.log(`[prepared-statements] ${skip}`);

/** A TCP proxy to `target` that records the statement names of the client's Parse messages. */
function parseRecorder(target: URL) {
  const names: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      // The startup message has no type byte; every later one is a type byte and a length counting itself.
      for (;;) {
        if (!started) {
          if (buffered.length < 4) break;
          const len = buffered.readInt32BE(0);
          if (buffered.length < len) break;
          buffered = buffered.subarray(len);
          started = true;
          continue;
        }
        if (buffered.length < 5) break;
        const len = buffered.readInt32BE(1);
        if (buffered.length < 1 + len) break;
        if (buffered[0] === 0x50) {
          const body = buffered.subarray(5, 1 + len);
          names.push(body.subarray(0, body.indexOf(0)).toString('utf8'));
        }
        buffered = buffered.subarray(1 + len);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  return {
    names,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const url = new URL(target);
          url.hostname = '127.0.0.1';
          url.port = String((server.address() as { port: number }).port);
          resolve(url.toString());
        }),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(skip !== null)('the operator commands and DB_PREPARED_STATEMENTS', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let proxy: ReturnType<typeof parseRecorder>;
  let url: string;

  beforeAll(async () => {
    db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'prepared');
    proxy = parseRecorder(new URL(db.url));
    url = await proxy.listen();
  });
  afterAll(async () => {
    await proxy?.close();
    await db?.drop();
  });

  /** The statement names each command had prepared, with the setting given. */
  async function prepared(setting: Record<string, string>) {
    const seen: Record<string, string[]> = {};
    for (const args of [
      ['migrate'],
      ['keys', 'create', '--name', 'pooled', '--json'],
      ['keys', 'list'],
      ['webhooks', 'add', 'https://hooks.example/explorer', '--events', 'block'],
      ['webhooks', 'list'],
    ]) {
      proxy.names.length = 0;
      const run = await runCommand(args, { DATABASE_URL: url, METRICS_PORT: 'off', ...setting });
      expect(run.err, args.join(' ')).toEqual([]);
      expect(run.exits, args.join(' ')).toEqual([0]);
      expect(proxy.names.length, args.join(' ')).toBeGreaterThan(0);
      seen[args.slice(0, 2).join(' ')] = [...new Set(proxy.names.filter((n) => n !== ''))];
    }
    return seen;
  }

  it('prepare no named statement with DB_PREPARED_STATEMENTS=false', async () => {
    const seen = await prepared({ DB_PREPARED_STATEMENTS: 'false' });
    for (const [command, names] of Object.entries(seen)) expect(names, command).toEqual([]);
  });

  it('prepare named statements by default (what the check above would see)', async () => {
    const seen = await prepared({});
    for (const [command, names] of Object.entries(seen)) {
      if (command === 'migrate') continue;
      expect(names.length, command).toBeGreaterThan(0);
    }
  });
});
