// The world most indexer tests start from: a devnet served over RPC on a free loopback port, a node client
// for it, the devnet's pool and label definitions as the indexer reads them, an indexer over a fresh test
// database, and one sync of a database by an indexer that stops after it. (@explorer/chain-fixture has the same for the packages above the indexer; it depends on
// the indexer, so the indexer's own tests keep theirs here.)

import type { Sql } from '@explorer/db';
import { createDevnet, type Devnet, type DevnetOptions, type RpcServerHandle } from '@explorer/devnet';
import { openTestDatabase, type TestDatabase } from '@explorer/testing';
import { createIndexer, type Indexer, type IndexerOptions, type IndexerStatus } from '../indexer.js';
import { createNodeClient, type NodeClient, type NodeClientOptions } from '../node-client.js';
import { createDefinitions, type Definitions, parseLabels, parsePools } from '../pools.js';

/** A devnet served over RPC, with what the indexer reads it through. */
export interface ServedDevnet {
  devnet: Devnet;
  server: RpcServerHandle;
  /** The RPC URL (`http://127.0.0.1:<port>/`). */
  url: string;
  /** A node client for the URL (the options serveDevnet was given). */
  node: NodeClient;
  /** The devnet's pools and labels, as the indexer reads them. */
  definitions: Definitions;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Creates a devnet and serves it on a free port.
 * @example const served = await serveDevnet({ seed: 'x', blocks: 60 }, { attempts: 2 }); await served.close()
 */
export async function serveDevnet(
  opts: DevnetOptions,
  client: Omit<NodeClientOptions, 'url'> = {},
): Promise<ServedDevnet> {
  const devnet = createDevnet(opts);
  const server = await devnet.listen({ port: 0 });
  return {
    devnet,
    server,
    url: server.url,
    node: createNodeClient({ url: server.url, ...client }),
    definitions: devnetDefinitions(devnet),
    close: () => server.close(),
  };
}

/** A devnet's pool and label definitions, as the indexer reads them. */
export function devnetDefinitions(devnet: Devnet): Definitions {
  const d = devnet.definitions();
  return createDefinitions(parsePools(d.pools), parseLabels(d.labels));
}

/** An indexer over a fresh test database; close() stops it and drops the database. */
export interface FreshIndex {
  db: TestDatabase;
  indexer: Indexer;
  close(): Promise<void>;
}

/**
 * An indexer over a fresh test database of `driver`, reading `node`; the options are the indexer's.
 * @example const { indexer, db, close } = await freshIndex('pglite', { node: served.node }); await indexer.syncOnce()
 */
export async function freshIndex(
  driver: TestDatabase['driver'],
  opts: Omit<IndexerOptions, 'sql'>,
): Promise<FreshIndex> {
  const db = await openTestDatabase(driver);
  const indexer = createIndexer({ ...opts, sql: db.sql });
  return {
    db,
    indexer,
    async close() {
      await indexer.stop();
      await db.drop();
    },
  };
}

/**
 * Syncs `sql` once from `node` (no pool or label definitions unless given) with an indexer that is stopped
 * after it, as a process that indexes and exits; gives the sync's result and the indexer's last status.
 * @example const { applied, status } = await indexOnce(db.sql, createNodeClient({ url }))
 */
export async function indexOnce(
  sql: Sql,
  node: NodeClient,
  definitions: Definitions = createDefinitions([], []),
): Promise<Awaited<ReturnType<Indexer['syncOnce']>> & { status: IndexerStatus }> {
  const indexer = createIndexer({ sql, node, definitions });
  try {
    const result = await indexer.syncOnce();
    return { ...result, status: indexer.status() };
  } finally {
    await indexer.stop();
  }
}
