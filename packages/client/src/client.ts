import { subscribeEvents } from './events/subscribe.js';
import type { ExplorerClient } from './explorer-client.js';
import { type OperationInfo, operations } from './operations.js';
import { PagedRequest, type PageInfo } from './paginate.js';
import { publicKeyOnly } from './private-keys.js';
import { createConnection, type ExplorerClientOptions } from './transport.js';
import type { OperationId } from './types.js';

type Params = Record<string, unknown>;
type Query = Record<string, unknown> | undefined;
type Page = { pagination?: PageInfo } & Record<string, unknown>;

/** The page size a query's `limit` asks for, when it is a whole number (a query may carry it as text). */
const pageSizeOf = (limit: unknown): number | undefined =>
  typeof limit === 'number' && Number.isInteger(limit)
    ? limit
    : typeof limit === 'string' && /^\d+$/.test(limit)
      ? Number(limit)
      : undefined;

/**
 * Creates the typed client of the explorer /v1 API (on ky; browsers and Node ≥ 20). Lists return a request
 * that awaits to the first page and iterates every item with `.all()`; errors are ExplorerError subclasses.
 * @example
 * const client = createExplorerClient({ baseUrl: 'https://explorer.example' });
 * const { blocks } = await client.blocks.list({ limit: 10 });
 * for await (const tx of client.addresses.txs('dvt1q…').all({ max: 500 })) console.log(tx.txid);
 * for await (const event of client.events.subscribe({ topics: ['block'] })) console.log(event.id, event.data);
 */
export function createExplorerClient(options: ExplorerClientOptions): ExplorerClient {
  const connection = createConnection(options);
  const { send } = connection;
  const info = (id: OperationId) => operations[id] as OperationInfo;
  const one = (id: OperationId, params?: Params, query?: Query): Promise<any> =>
    info(id).stream
      ? // A stream never ends: one JSON body would never come (or would time out). Say where it is served.
        Promise.reject(new TypeError(`${id} is an event stream: use client.events.subscribe()`))
      : send(id, info(id), params, query);
  const list = (id: OperationId, params?: Params, query?: Query): any => {
    const member = String(info(id).members[0]);
    return new PagedRequest<Page, unknown>(
      (cursor, limit) => {
        // The cursor carries the position: a legacy offset would be refused next to it.
        const { offset: _offset, ...rest } = query ?? {};
        const q = cursor === null ? query : { ...rest, cursor };
        return one(id, params, limit === undefined ? q : { ...q, limit });
      },
      (page) => (page[member] as unknown[] | undefined) ?? [],
      {
        pageSize: pageSizeOf(query?.limit),
        withItems: (page, items) => ({ ...page, [member]: items }),
      },
    );
  };
  const h = (heightOrHash: unknown) => ({ heightOrHash });
  const t = (txid: unknown) => ({ txid });
  const a = (address: unknown) => ({ address });
  const p = (poolId: unknown) => ({ poolId });
  const many = (addresses: readonly unknown[]) => ({ addresses: addresses.join(',') });

  return {
    blocks: {
      list: (q) => list('listBlocks', undefined, q),
      get: (x) => one('getBlock', h(x)),
      certificate: (x, q) => one('getBlockCertificate', h(x), q),
      coinbaseOutputs: (x) => one('getBlockCoinbaseOutputs', h(x)),
      outputs: (x, q) => list('listBlockOutputs', h(x), q),
      raw: (x) => one('getBlockRaw', h(x)),
      txs: (x, q) => list('listBlockTxs', h(x), q),
    },
    txs: {
      list: (q) => list('listTxs', undefined, q),
      get: (x) => one('getTx', t(x)),
      flow: (x) => one('getTxFlow', t(x)),
      inputs: (x, q) => list('listTxInputs', t(x), q),
      outputs: (x, q) => list('listTxOutputs', t(x), q),
      raw: (x) => one('getTxRaw', t(x)),
      status: (x) => one('getTxStatus', t(x)),
      outspends: (x, q) => list('listTxOutspends', t(x), q),
    },
    addresses: {
      get: (x) => one('getAddress', a(x)),
      txs: (x, q) => list('listAddressTxs', a(x), q),
      utxos: (x, q) => list('listAddressUtxos', a(x), q),
      balanceHistory: (x) => one('getAddressBalanceHistory', a(x)),
      flowSummary: (x) => one('getAddressFlowSummary', a(x)),
      flows: (x, q) => list('listAddressFlows', a(x), q),
      getMany: (xs) => one('getAddresses', undefined, many(xs)),
      txsOfMany: (xs, q) => list('listMultiAddressTxs', undefined, { ...q, ...many(xs) }),
      utxosOfMany: (xs, q) => list('listMultiAddressUtxos', undefined, { ...q, ...many(xs) }),
      mempool: (x, q) => list('listAddressMempool', a(x), q),
    },
    // A private key is refused here, before any request: get() rejects, the lists throw when called.
    wallet: {
      get: async (key, q) => one('getWallet', undefined, { ...q, key: publicKeyOnly(key) }),
      txs: (key, q) => list('listWalletTxs', undefined, { ...q, key: publicKeyOnly(key) }),
      utxos: (key, q) => list('listWalletUtxos', undefined, { ...q, key: publicKeyOnly(key) }),
    },
    miners: {
      top: (q) => list('listTopMiners', undefined, q),
      get: (x, q) => list('getMiner', a(x), q),
      blocksOverTime: (x) => one('getMinerBlocksOverTime', a(x)),
    },
    pools: {
      top: (q) => one('listTopPools', undefined, q),
      get: (x) => one('getPool', p(x)),
      blocksOverTime: (x) => one('getPoolBlocksOverTime', p(x)),
      payoutOutputs: (x, q) => list('listPoolPayoutOutputs', p(x), q),
    },
    analytics: {
      network: () => one('getNetworkAnalytics'),
      pouw: () => one('getPouwAnalytics'),
      supply: () => one('getSupplyAnalytics'),
      pools: () => one('getPoolAnalytics'),
      market: () => one('getMarketAnalytics'),
    },
    market: {
      get: () => one('getMarket'),
      chart: (q) => one('getMarketChart', undefined, q),
    },
    events: {
      subscribe: (o) => subscribeEvents(connection, o),
    },
    search: (q) => one('search', undefined, { q }),
    suggest: (q, query) => one('suggest', undefined, { ...query, q }),
    mempool: () => one('getMempool'),
    fees: () => one('getFees'),
    blockbookEstimateFee: (blocks, query) =>
      one('getBlockbookEstimateFee', { blocks: String(blocks) }, query),
    knownAddresses: () => one('listKnownAddresses'),
    status: () => one('getStatus'),
    me: () => one('getMe'),
    openapi: () => one('getOpenApiDocument'),
    request: (id, input?: { params?: Params; query?: Query }) => one(id, input?.params, input?.query),
  };
}
