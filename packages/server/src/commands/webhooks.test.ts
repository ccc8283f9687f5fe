import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendEvents, claimDueDeliveries, openDatabase, recordDeliveryAttempt } from '@explorer/db';
import { pgSkipReason, scratchDatabase } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../test-support/run-command.js';

const ALICE = 'dvt1qalice0000000000000000';
// The commands run on PostgreSQL when there is one, else on an embedded data dir: the queries are tested on
// both drivers in @explorer/db, and a dozen PGlite starts would make this file slow for nothing.
const skip = pgSkipReason();
if (skip) console.log(`[webhooks command] ${skip}; the commands run on PGlite only`);

describe.each([skip ? 'pglite' : 'pg'])('explorer-server webhooks (%s)', (driver) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'explorer-webhooks-'));
  const env: Record<string, string> = { EXPLORER_DATA_DIR: dataDir };
  let drop = async () => {};
  beforeAll(async () => {
    if (driver !== 'pg') return;
    const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'webhooks_cli');
    env.DATABASE_URL = db.url;
    drop = db.drop;
  });
  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (args: string[]) => runCommand(args, env);

  const open = () => openDatabase({ url: env.DATABASE_URL, dataDir });

  it('adds (secret shown once), lists without secrets, shows the delivery log, and removes', async () => {
    const added = await run([
      'webhooks',
      'add',
      'https://example.org/hook',
      '--events',
      'reorg,address',
      '--address',
      ALICE,
    ]);
    expect(added.err).toEqual([]);
    expect(added.exits).toEqual([0]);
    const id =
      /^added webhook (wh_[0-9a-f]{16}) \(https:\/\/example\.org\/hook; topics (\S+); 1 address\):$/.exec(
        added.out[0]!,
      );
    expect(id).not.toBeNull();
    expect(id![2]!.split(',').sort()).toEqual(['address', 'reorg']);
    const secret = added.out[1]!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(added.out[2]).toMatch(/no command shows it again/);

    const json = await run(['webhooks', 'add', 'http://127.0.0.1:9/b', '--json']);
    const other = JSON.parse(json.out[0]!);
    expect(other).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(other.topics.sort()).toEqual(['block', 'reorg']);

    const list = await run(['webhooks', 'list']);
    expect(list.exits).toEqual([0]);
    expect(list.out[0]).toMatch(/^ID\s+URL\s+TOPICS\s+ADDRESSES\s+CREATED\s+REMOVED$/);
    expect(list.out[1]).toMatch(
      new RegExp(
        `^${id![1]}\\s+https://example.org/hook\\s+\\S+\\s+1\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+-$`,
      ),
    );
    const listed = JSON.parse((await run(['webhooks', 'list', '--json'])).out[0]!);
    expect(listed.map((w: { id: string }) => w.id)).toEqual([id![1], other.id]);
    expect(listed[0].addresses).toEqual([ALICE]);
    expect(JSON.stringify(listed) + list.out.join('\n')).not.toContain('whsec_');

    expect(await run(['webhooks', 'deliveries'])).toMatchObject({ out: ['no deliveries'], exits: [0] });
    // An event both receive; one attempt of the first fails.
    const sql = await open();
    try {
      await sql.transaction((tx) =>
        appendEvents(tx, [
          { type: 'reorg', data: { forkHeight: 3, forkHash: null, removed: [], added: [] } },
        ]),
      );
      const claimed = await claimDueDeliveries(sql, { limit: 10, leaseMs: 60_000 });
      expect(claimed).toHaveLength(2);
      for (const c of claimed)
        await recordDeliveryAttempt(
          sql,
          c.id,
          c.webhookId === other.id
            ? { result: 'delivered', httpStatus: 200 }
            : { result: 'retry', httpStatus: 502, error: 'HTTP 502', retryInMs: 60_000, maxAgeMs: 3_600_000 },
        );
    } finally {
      await sql.close();
    }
    const log = await run(['webhooks', 'deliveries']);
    expect(log.exits).toEqual([0]);
    expect(log.out[0]).toMatch(
      /^ID\s+WEBHOOK\s+EVENT\s+TYPE\s+STATUS\s+ATTEMPTS\s+HTTP\s+CREATED\s+NEXT\/DONE\s+LAST ERROR$/,
    );
    expect(log.out).toHaveLength(3);
    expect(log.out.find((l) => l.includes(id![1]!))).toMatch(
      new RegExp(`^\\d+\\s+${id![1]}\\s+\\d+\\s+reorg\\s+pending\\s+1\\s+502\\s+.+\\s+HTTP 502$`),
    );
    const mine = JSON.parse((await run(['webhooks', 'deliveries', '--webhook', other.id, '--json'])).out[0]!);
    expect(mine).toEqual([
      expect.objectContaining({ webhookId: other.id, status: 'delivered', attempts: 1, lastStatus: 200 }),
    ]);
    expect(
      JSON.parse((await run(['webhooks', 'deliveries', '--limit', '1', '--json'])).out[0]!),
    ).toHaveLength(1);

    const removed = await run(['webhooks', 'remove', id![1]!]);
    expect(removed).toMatchObject({
      out: [`removed webhook ${id![1]}; 1 pending delivery marked failed`],
      exits: [0],
    });
    expect((await run(['webhooks', 'remove', id![1]!])).out).toEqual([
      `webhook ${id![1]} was already removed`,
    ]);
    const unknown = await run(['webhooks', 'remove', 'wh_0000000000000000']);
    expect(unknown).toMatchObject({
      err: ['explorer-server: webhooks remove: no webhook with id wh_0000000000000000'],
      exits: [1],
    });
    const after = JSON.parse((await run(['webhooks', 'deliveries', '--webhook', id![1]!, '--json'])).out[0]!);
    expect(after[0]).toMatchObject({ status: 'failed', lastError: expect.stringMatching(/removed/) });
  });

  it('refuses bad input with one line and exit code 2, before touching the database', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['webhooks', 'add', 'ftp://example.org/'],
        /^explorer-server: webhooks add: .*http:\/\/ or https:\/\//,
      ],
      [['webhooks', 'add', 'not a url'], /^explorer-server: webhooks add: .*absolute/],
      [
        ['webhooks', 'add', 'https://e.org/', '--events', 'blocks'],
        /^explorer-server: webhooks add: .*unknown: blocks$/,
      ],
      [['webhooks', 'add', 'https://e.org/', '--events', 'address'], /needs addresses/],
      [['webhooks', 'remove', "x' OR 1=1"], /^explorer-server: webhooks remove: a webhook id is wh_/],
      [['webhooks', 'deliveries', '--limit', '0'], /--limit must be an integer from 1 to 1000$/],
      [['webhooks', 'deliveries', '--webhook', 'nope'], /--webhook must be a webhook id/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.exits, args.join(' ')).toEqual([2]);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(message);
      expect(r.out).toEqual([]);
    }
  });
});
