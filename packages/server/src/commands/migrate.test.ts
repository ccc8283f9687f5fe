import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgSql, migrations, openDatabase, type Sql } from '@explorer/db';
import { scratchDatabase, seedV1Index, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../test-support/run-command.js';

const latest = Math.max(...migrations.map((m) => m.version));

const run = (args: string[], env: Record<string, string>) =>
  runCommand(args, { LOG_LEVEL: 'silent', ...env });

const plan = [
  'schema at version 9; to apply:',
  '  10 storage-v2: rebuilds the chain index from the node',
  '    drops the indexed blocks, certificates, transactions and addresses, and the statistics made from them',
  '    keeps API keys, webhooks and their deliveries, the events log, market data, and pool and label definitions',
  '    then the indexer indexes the chain again from the node, as in a first sync: 3 blocks (up to height 2) to index again',
  // Later migrations that keep the index are listed by version and name.
  ...migrations.filter((m) => m.version > 10).map((m) => `  ${m.version} ${m.name}`),
];
const refusal =
  /^explorer-server: (migrate|start) failed: the database holds an index of 3 blocks \(up to height 2\), and schema version 10 \(storage-v2\) rebuilds the chain index from the node: .* Nothing of it was applied \(schema at version 9\); to rebuild, run `explorer-server migrate --rebuild` \(docs\/operations\.md#upgrading\)$/;

describe.each(testDrivers())('explorer-server migrate on a v1 index (%s)', (driver) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'explorer-upgrade-'));
  let env: Record<string, string> = { EXPLORER_DATA_DIR: dataDir };
  let dropDatabase = async () => {};
  /** Opens the database as the commands see it, without migrating, for `fn` to look at. */
  let inspect = async <T>(fn: (sql: Sql) => Promise<T>): Promise<T> => {
    const sql = await openDatabase({ dataDir, migrate: false });
    try {
      return await fn(sql);
    } finally {
      await sql.close();
    }
  };

  beforeAll(async () => {
    if (driver === 'pg') {
      const db = await scratchDatabase(process.env.TEST_DATABASE_URL!, 'upgrade');
      env = { ...env, DATABASE_URL: db.url };
      dropDatabase = db.drop;
      inspect = async (fn) => {
        const sql = createPgSql({ connectionString: db.url, max: 1 });
        try {
          return await fn(sql);
        } finally {
          await sql.close();
        }
      };
    }
    await inspect((sql) => seedV1Index(sql, 3));
  });
  afterAll(async () => {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const state = () =>
    inspect(async (sql) => {
      const [row] = await sql.query<{ version: number; blocks: number; tip: number; keys: number }>(
        `SELECT (SELECT max(version) FROM schema_migrations) AS version,
                (SELECT count(*)::int4 FROM blocks) AS blocks,
                (SELECT tip_height FROM indexer_state) AS tip,
                (SELECT count(*)::int4 FROM api_keys) AS keys`,
      );
      return row;
    });

  it('prints the plan and refuses without --rebuild, changing nothing; a dry run says what it would need', async () => {
    const dry = await run(['migrate', '--dry-run'], env);
    expect(dry.out).toEqual([...plan, 'dry run: nothing applied; applying it needs --rebuild']);
    expect(dry.err).toEqual([]);
    expect(dry.exits).toEqual([0]);

    const refused = await run(['migrate'], env);
    expect(refused.out).toEqual(plan);
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(refusal);
    expect(refused.exits).toEqual([2]);
    expect(await state()).toEqual({ version: 9, blocks: 3, tip: 2, keys: 1 });
  });

  it('start and the operator commands refuse with the same one line and exit code 2, applying nothing', async () => {
    // Beside a node (none answers here: the database is opened first); the demo rebuilds without asking.
    const started = await run(['start', '--port', '0'], {
      ...env,
      METRICS_PORT: 'off',
      NODE_RPC_URL: 'http://127.0.0.1:9/',
    });
    expect(started.out).toEqual([]);
    expect(started.err).toHaveLength(1);
    expect(started.err[0]).toMatch(refusal);
    expect(started.err[0]).toMatch(/^explorer-server: start failed: /);
    expect(started.exits).toEqual([2]);
    // So do the operator commands, which migrate first.
    const keys = await run(['keys', 'list'], env);
    expect(keys.err[0]).toMatch(
      /^explorer-server: keys list failed: the database holds an index of 3 blocks/,
    );
    expect(keys.exits).toEqual([2]);
    expect(await state()).toEqual({ version: 9, blocks: 3, tip: 2, keys: 1 });
  });

  it('--rebuild applies, empties the index for the indexer to rebuild and keeps the API keys', async () => {
    const rebuilt = await run(['migrate', '--rebuild'], env);
    expect(rebuilt.err).toEqual([]);
    expect(rebuilt.out).toEqual([
      ...plan,
      `applied migrations ${migrations
        .filter((m) => m.version > 9)
        .map((m) => m.version)
        .join(', ')}; schema at version ${latest}`,
      'the chain index is empty now: the next start of the indexer (explorer-server start or index) indexes the 3 blocks again from the node; follow it in /v1/status (indexer.progress) and in the log',
    ]);
    expect(rebuilt.exits).toEqual([0]);
    expect(await state()).toEqual({ version: latest, blocks: 0, tip: -1, keys: 1 });

    const again = await run(['migrate'], env);
    expect(again.out).toEqual([`nothing to apply; schema at version ${latest}`]);
    expect(again.exits).toEqual([0]);
  });
});
