/** @explorer/chain-fixture: a devnet chain indexed into a fresh database, with the API over it (private; tests read it from source). */
import {
  type ApiConfig,
  type ChainNode,
  createExplorerApi,
  type EsploraOptions,
  type ExplorerApi,
  esploraRoutes,
  v1Routes,
} from '@explorer/core';
import { createSqlStore } from '@explorer/db';
import {
  createDevnet,
  createReplayDevnet,
  type Devnet,
  type DevnetOptions,
  type ReplayDevnet,
  type ReplayOptions,
} from '@explorer/devnet';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  type Definitions,
  type Indexer,
  type NodeClient,
  parseLabels,
  parsePools,
} from '@explorer/indexer';
import {
  apiGetter,
  openTestDatabase,
  serveFetch,
  type TestDatabase,
  type TestServer,
} from '@explorer/testing';

/** A devnet chain indexed into a fresh database, with the API over it. */
export interface ChainFixture {
  devnet: Devnet;
  node: NodeClient;
  db: TestDatabase;
  api: ExplorerApi;
  definitions: Definitions;
  /** Brings the index up to the devnet's tip. */
  sync(): Promise<void>;
  /** GET a path through the API; returns status, headers and parsed body. */
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** A block's transactions as the node renders them (Core: `tx`; pearld: `rawtx`), whatever its dialect. */
export async function nodeBlockTxs(node: NodeClient, height: number): Promise<any[]> {
  const block = await node.call<any>('getblock', [await node.call<string>('getblockhash', [height]), 2]);
  return block.rawtx ?? block.tx;
}

/** A ChainNode over a JSON-RPC client, asking the node on every call (tests want no staleness). */
export function directChainNode(node: NodeClient, height: () => number | null): ChainNode {
  return {
    lastHeight: height,
    async probe() {
      const t = performance.now();
      try {
        const h = await node.call<number>('getblockcount');
        return { reachable: true, height: h, latencyMs: performance.now() - t, error: null };
      } catch (e) {
        return { reachable: false, height: null, latencyMs: null, error: (e as Error).message };
      }
    },
    call: (method, params) => node.call(method, params),
  };
}

/** The parts of a fixture that do not depend on which devnet serves the chain. */
type IndexedApi = Omit<ChainFixture, 'devnet'>;

/** A fresh database indexing the node at `url`, with the API over it. */
async function indexedApi(
  driver: 'pg' | 'pglite',
  url: string,
  definitions: Definitions,
  nodeHeight: () => number | null,
  finalityDepth: number,
  closeNode: () => Promise<void>,
  config: Partial<ApiConfig> = {},
  esplora: EsploraOptions = {},
): Promise<IndexedApi> {
  const node = createNodeClient({ url, attempts: 2, backoffMs: 50 });
  const db = await openTestDatabase(driver);
  let indexer: Indexer | null = null;
  const api = createExplorerApi({
    store: createSqlStore(db.sql),
    routes: v1Routes,
    // The protocol adapters the server mounts by default (Esplora's REST API under /api).
    adapters: esploraRoutes(esplora),
    node: directChainNode(node, nodeHeight),
    config: { finalityDepth, publicBaseUrl: 'http://127.0.0.1:3000', tipCacheMs: 0, ...config },
    // A 5xx in a test is a bug: show what caused it.
    onError: (err, info) =>
      console.error(`[fixture] ${info.route} answered with a 5xx:`, (err as Error).message),
  });
  const fixture: IndexedApi = {
    node,
    db,
    api,
    definitions,
    async sync() {
      indexer ??= createIndexer({ sql: db.sql, node, definitions });
      await indexer.syncOnce();
    },
    get: apiGetter(api),
    async close() {
      await indexer?.stop();
      await closeNode();
      await db.drop();
    },
  };
  await fixture.sync();
  return fixture;
}

/**
 * Builds the fixture: a deterministic devnet, indexed, served through the real route table.
 * @example const f = await createChainFixture('pglite'); const { body } = await f.get('/v1/blocks');
 */
export async function createChainFixture(
  driver: 'pg' | 'pglite',
  opts: DevnetOptions & { finalityDepth?: number } = {},
): Promise<ChainFixture> {
  const { finalityDepth = 20, ...devnetOpts } = opts;
  const devnet = createDevnet({
    seed: 'contract',
    blocks: 120,
    txPerBlock: 6,
    coinbaseMaturity: 10,
    ...devnetOpts,
  });
  const server = await devnet.listen({ port: 0 });
  const defs = devnet.definitions();
  const definitions = createDefinitions(parsePools(defs.pools), parseLabels(defs.labels));
  const parts = await indexedApi(
    driver,
    server.url,
    definitions,
    () => devnet.height(),
    finalityDepth,
    () => server.close(),
  );
  return { devnet, ...parts };
}

/** A real node's chain indexed into a fresh database, with the API over it. */
export type NodeFixture = IndexedApi;

/**
 * Indexes the chain of a node of our own (litecoind regtest) into a fresh database, with the API over it, and
 * no pool or label definitions (`config` adds to the API's); `sync()` again once the node moved. Closing it leaves
 * the node running.
 * @example const f = await indexNode('pglite', litecoind.rpcUrl); await litecoind.mine(1); await f.sync()
 */
export async function indexNode(
  driver: 'pg' | 'pglite',
  url: string,
  opts: { finalityDepth?: number; config?: Partial<ApiConfig>; esplora?: EsploraOptions } = {},
): Promise<NodeFixture> {
  // The height the API reports for the node: what it was at the last sync.
  let height: number | null = null;
  const parts = await indexedApi(
    driver,
    url,
    createDefinitions([], []),
    () => height,
    opts.finalityDepth ?? 100,
    async () => {},
    opts.config,
    opts.esplora,
  );
  const track = async () => {
    height = await parts.node.call<number>('getblockcount');
  };
  await track();
  return {
    ...parts,
    async sync() {
      await parts.sync();
      await track();
    },
  };
}

/** Given blocks replayed by the devnet (createReplayDevnet), indexed, with the API over them. */
export interface ReplayFixture extends IndexedApi {
  replay: ReplayDevnet;
}

/**
 * Builds a fixture over given blocks (a real node's), replayed from the first `revealed`; `replay.step()` then
 * `sync()` brings in the next ones. No pool or label definitions.
 * @example const f = await createReplayFixture('pglite', { blocks, revealed: 21 }); f.replay.step(2); await f.sync();
 */
export async function createReplayFixture(
  driver: 'pg' | 'pglite',
  opts: ReplayOptions & { finalityDepth?: number },
): Promise<ReplayFixture> {
  const { finalityDepth = 20, ...replayOpts } = opts;
  const replay = createReplayDevnet(replayOpts);
  const server = await replay.listen({ port: 0 });
  const parts = await indexedApi(
    driver,
    server.url,
    createDefinitions([], []),
    () => replay.height(),
    finalityDepth,
    () => server.close(),
  );
  return { replay, ...parts };
}

/** The contract fixture (a devnet chain indexed into PGlite) with its API served over HTTP on 127.0.0.1. */
export interface ServedFixture {
  fixture: ChainFixture;
  server: TestServer;
  close(): Promise<void>;
}

/**
 * Builds the fixture and serves its API; `extra` answers paths it knows (static files) before the API.
 * @example const { fixture, server } = await serveChainFixture(); createExplorerClient({ baseUrl: server.url })
 */
export async function serveChainFixture(
  extra: (req: Request) => Response | null = () => null,
): Promise<ServedFixture> {
  const fixture = await createChainFixture('pglite');
  const server = await serveFetch((req) => extra(req) ?? fixture.api.handle(req));
  return {
    fixture,
    server,
    async close() {
      await server.close();
      await fixture.close();
    },
  };
}
