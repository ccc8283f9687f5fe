import {
  type EventsReset,
  type EventTopic,
  ExplorerStreamClosedError,
  type RetryInfo,
} from '@explorer/client';
import type { Command } from 'commander';
import { type CliIo, type CommandContext, contextOf, waitNotice } from '../context.js';
import { CliUsageError } from '../errors.js';
import { eventLines } from '../event-lines.js';
import { withExamples } from '../run.js';

/** The options of the `watch` commands. */
interface WatchOptions {
  from?: string;
}

/**
 * The stderr line said before the stream is opened again: the Retry-After notice of a 429 or 503, else why it
 * ended and how long until the next try.
 * @example reconnectNotice({ status: null, error: droppedError, delayMs: 1500, … }) // 'the connection dropped; reconnecting in 1.5 s'
 */
export function reconnectNotice(retry: RetryInfo): string {
  if (retry.retryAfter) return waitNotice(retry);
  const e = retry.error;
  const why =
    e instanceof ExplorerStreamClosedError
      ? e.code === null
        ? 'the connection dropped'
        : `the server closed the stream (${e.code})`
      : retry.status !== null
        ? `the server answered ${retry.status}`
        : e instanceof Error
          ? e.message
          : String(e);
  return `${why}; reconnecting in ${(retry.delayMs / 1000).toFixed(1)} s`;
}

/** The stderr line said when the server no longer holds the events after the id resumed from. */
function resetNotice(r: EventsReset): string {
  const from = r.oldestId === null ? 'the oldest it holds' : `event ${r.oldestId}`;
  return `warning: events after ${r.lastEventId ?? 'the start'} are no longer held (${r.reason}); going on from ${from}`;
}

/**
 * The stderr line said when `--from` is past the newest event the server holds: the watch waits, silent, until
 * the log passes it (an id a replica has not heard of yet is reached soon; one from another database may never
 * be). Null when `--from` is not past it, or the server did not say.
 * @example aheadNotice('5000', '1240') // 'waiting for events after 5000; the newest the server holds is 1240'
 */
export function aheadNotice(from: string, newest: string | null | undefined): string | null {
  if (newest === null || newest === undefined || BigInt(from) <= BigInt(newest)) return null;
  return `waiting for events after ${from}; the newest the server holds is ${newest}`;
}

/** Says `aheadNotice` on stderr when it applies; a status the server cannot give is no reason to stop watching. */
async function noteAhead(ctx: CommandContext, from: string): Promise<void> {
  const status = await ctx.client.status().catch(() => null);
  const line = aheadNotice(from, status?.status.events?.lastEventId);
  if (line !== null) ctx.io.stderr.write(`${line}\n`);
}

/**
 * Prints the events of a subscription as they arrive, one line each (NDJSON: one event per line), until
 * Ctrl-C; then says on stderr where to resume.
 */
async function follow(
  ctx: CommandContext,
  o: WatchOptions,
  topics: readonly EventTopic[],
  addresses?: readonly string[],
): Promise<void> {
  if (o.from !== undefined && !/^[0-9]+$/.test(o.from))
    throw new CliUsageError('--from must be an event id (digits), e.g. the last id a previous watch printed');
  const { stdout, stderr, signal } = ctx.io;
  const human = ctx.output.format === 'table';
  const sub = ctx.client.events.subscribe({
    topics,
    ...(addresses ? { addresses } : {}),
    lastEventId: o.from ?? null,
    signal,
    onReset: (r) => stderr.write(`${resetNotice(r)}\n`),
    onRetry: (r) => stderr.write(`${reconnectNotice(r)}\n`),
  });
  // Asked beside the stream, which it does not hold up: no event comes before the log passes --from anyway.
  const ahead = o.from === undefined ? null : noteAhead(ctx, o.from);
  for await (const event of sub) {
    const lines = human ? eventLines(event, ctx.output.baseUnits) : [JSON.stringify(event)];
    stdout.write(lines.map((l) => `${l}\n`).join(''));
  }
  await ahead;
  // The iteration ends only when Ctrl-C aborted it: a normal way to stop watching.
  if (sub.lastEventId !== null) stderr.write(`stopped; resume with --from ${sub.lastEventId}\n`);
}

/** Adds --from to a watch command. */
const withFrom = (cmd: Command) =>
  cmd.option('--from <id>', 'resume after this event id (what a previous watch said when it stopped)');

/**
 * `explorer watch blocks|reorgs|mempool|address <addr…>`: live events, one line each (NDJSON with --json), until
 * Ctrl-C (exit 0), reconnecting and resuming by itself.
 * @example explorer watch blocks --json
 */
export function watchCommand(program: Command, io: CliIo): Command {
  const watch = program
    .command('watch')
    .description('follow live events until Ctrl-C: new blocks, reorgs, the mempool, or addresses');
  withExamples(watch, 'explorer watch blocks', 'explorer watch address <address> --json');

  const blocks = withFrom(
    watch.command('blocks').description('new blocks and the reorgs that undo them, as they are indexed'),
  );
  withExamples(blocks, 'explorer watch blocks', 'explorer watch blocks --json --from 1234 >> events.ndjson');
  blocks.action((o: WatchOptions, c: Command) => follow(contextOf(c, io), o, ['block', 'reorg']));

  const reorgs = withFrom(watch.command('reorgs').description('chain reorganisations only'));
  withExamples(reorgs, 'explorer watch reorgs');
  reorgs.action((o: WatchOptions, c: Command) => follow(contextOf(c, io), o, ['reorg']));

  const mempool = withFrom(
    watch.command('mempool').description('mempool changes: transactions in and out, size and fee rates'),
  );
  withExamples(mempool, 'explorer watch mempool', 'explorer watch mempool --json | jq .data.fees');
  mempool.action((o: WatchOptions, c: Command) => follow(contextOf(c, io), o, ['mempool']));

  const address = withFrom(
    watch
      .command('address')
      .description('what addresses receive and send, in blocks and in the mempool')
      .argument('<address...>', 'one or more addresses'),
  );
  withExamples(address, 'explorer watch address <address>', 'explorer watch address <a1> <a2> --json');
  address.action((addresses: string[], o: WatchOptions, c: Command) =>
    follow(contextOf(c, io), o, ['address'], addresses),
  );
  return watch;
}
