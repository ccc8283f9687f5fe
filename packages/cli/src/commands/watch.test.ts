import type { ChainEvent } from '@explorer/client';
import { blockEvents, type EventStreamServer, serveEventStream } from '@explorer/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../context.js';
import { runCli } from '../program.js';
import { aheadNotice } from './watch.js';

let servers: EventStreamServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(handle: Parameters<typeof serveEventStream>[0]) {
  const s = await serveEventStream(handle);
  servers.push(s);
  return s;
}

/**
 * Runs the command line in process against `server`; the test's Ctrl-C comes once stdout holds `lines` lines
 * (never, for 0: the command must end by itself).
 */
async function watch(server: { url: string }, args: string[], lines: number, isTTY = false) {
  let out = '';
  let err = '';
  const interrupt = new AbortController();
  const io: CliIo = {
    stdout: {
      write: (s: string) => {
        out += s;
        if (lines > 0 && out.split('\n').length > lines) interrupt.abort();
      },
      isTTY,
    },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    env: { EXPLORER_BASE_URL: server.url },
    signal: interrupt.signal,
  };
  const code = await runCli(args, io);
  return { code, out, err, lines: out.split('\n').filter((l) => l.length > 0) };
}

const LOG = blockEvents(6, 100);
const after = (id: string | null) => LOG.filter((e) => id === null || BigInt(e.id) > BigInt(id));

describe('explorer watch', () => {
  it('watch blocks --json prints one ChainEvent per line and exits 0 on Ctrl-C, saying where to resume', async () => {
    const server = await serve((c) => {
      c.open();
      for (const e of after(c.lastEventId).slice(0, 3)) c.send(e);
    });
    const r = await watch(server, ['watch', 'blocks', '--json'], 3);
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => JSON.parse(l) as ChainEvent)).toEqual(LOG.slice(0, 3));
    expect(r.err).toBe('stopped; resume with --from 102\n');
    expect(server.connections[0]).toMatchObject({ topics: ['block', 'reorg'], lastEventId: null });
  });

  it('--from resumes, a dropped connection is resumed without a repeated line, and each wait is said on stderr', async () => {
    const server = await serve((c) => {
      c.open();
      // Sends one before the id asked for too: the SDK drops it.
      for (const e of LOG.filter((x) => BigInt(x.id) >= BigInt(c.lastEventId ?? '0')).slice(0, 3)) c.send(e);
      if (c.n === 1) c.drop();
    });
    const r = await watch(server, ['watch', 'blocks', '--ndjson', '--from', '100'], 4);
    expect(r.code).toBe(0);
    expect(r.lines.map((l) => JSON.parse(l).id)).toEqual(['101', '102', '103', '104']);
    expect(server.connections.map((c) => c.lastEventId)).toEqual(['100', '102']);
    expect(r.err).toMatch(
      /^the connection dropped; reconnecting in \d+\.\d s\nstopped; resume with --from 104\n$/,
    );
  });

  it('watch address prints one human line per address, and asks for the address topic with the addresses', async () => {
    const [a, b] = ['prl1qexampleaddressaaaa', 'prl1qexampleaddressbbbb'];
    const event: ChainEvent = {
      id: '7',
      type: 'address',
      at: '2026-01-01T00:00:00.000Z',
      data: {
        confirmed: false,
        height: null,
        blockHash: null,
        activity: [
          {
            address: a,
            txids: ['a'.repeat(64)],
            received: '150000000',
            sent: '0',
            balance: '1000000000',
            mempoolDelta: '150000000',
          },
          {
            address: b,
            txids: ['a'.repeat(64)],
            received: '0',
            sent: '150000000',
            balance: '0',
            mempoolDelta: '-150000000',
          },
        ],
      },
    };
    const server = await serve((c) => {
      c.open();
      c.send(event);
    });
    const r = await watch(server, ['watch', 'address', a, b], 2, true);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      `address ${a}  mempool  1 tx  received 1.50000000  sent 0.00000000  balance 10.00000000  pending +1.50000000`,
      `address ${b}  mempool  1 tx  received 0.00000000  sent 1.50000000  balance 0.00000000  pending -1.50000000`,
    ]);
    expect(server.connections[0]).toMatchObject({ topics: ['address'], addresses: [a, b] });
  });

  it('watch blocks on a terminal prints a line per block', async () => {
    const server = await serve((c) => {
      c.open();
      c.send(LOG[0]!);
    });
    const r = await watch(server, ['watch', 'blocks'], 1, true);
    const b = LOG[0]!.data as { hash: string; txCount: number };
    expect(r.lines).toEqual([
      `block 100  ${b.hash.slice(0, 8)}…${b.hash.slice(-8)}  ${b.txCount} txs  pool Unknown  2026-01-01T01:40:00Z`,
    ]);
  });

  it('errors as the other commands show them: a 400 exits 4 with its message, without retrying; a bad --from exits 2', async () => {
    const server = await serve((c) => c.refuse(400, 'addresses must be addresses; not one: x'));
    const r = await watch(server, ['watch', 'address', 'x'], 0);
    expect(r.code).toBe(4);
    expect(r.out).toBe('');
    expect(r.err).toBe('error: addresses must be addresses; not one: x (requestId events-1)\n');
    expect(server.connections).toHaveLength(1);
    const bad = await watch(server, ['watch', 'blocks', '--from', 'yesterday'], 0);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error: --from must be an event id/);
  });

  it('says it waits when --from is past the newest event the server holds, and only then', () => {
    expect(aheadNotice('5000', '1240')).toBe(
      'waiting for events after 5000; the newest the server holds is 1240',
    );
    expect(aheadNotice('1240', '1240')).toBeNull();
    expect(aheadNotice('7', '1240')).toBeNull();
    // A server that serves no events, or did not answer: nothing to compare with.
    expect(aheadNotice('5000', null)).toBeNull();
    expect(aheadNotice('5000', undefined)).toBeNull();
    // Ids are compared as integers, past 2^53 too.
    expect(aheadNotice('9007199254740993', '9007199254740992')).not.toBeNull();
  });
});
