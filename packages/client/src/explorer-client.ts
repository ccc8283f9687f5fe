import type { EventSubscription, SubscribeOptions } from './events/subscribe.js';
import type { PagedRequest } from './paginate.js';
import type {
  HeightOrHash,
  InputOf,
  ItemOf,
  MemberOf,
  OpenApiDocument,
  OperationId,
  QueryOf,
  ResponseOf,
  ResultOf,
} from './types.js';

/** A list request of operation `K` whose items are in member `M`: await it for the first page, or `.all()`. */
export type ListRequest<K extends OperationId, M extends MemberOf<K>> = PagedRequest<
  ResponseOf<K>,
  ItemOf<K, M>
>;

type Res<K extends OperationId> = Promise<ResponseOf<K>>;

/** The arguments of `request(operationId, input)`: input is optional when the operation has no path parameter. */
export type RequestArgs<K extends OperationId> =
  Record<string, never> extends Pick<InputOf<K>, 'params'> ? [input?: InputOf<K>] : [input: InputOf<K>];

/** Blocks: `/v1/blocks…`. */
export interface BlocksApi {
  /**
   * Newest blocks first (paged).
   * @example const { blocks, pagination } = await client.blocks.list({ limit: 10 })
   */
  list(query?: QueryOf<'listBlocks'>): ListRequest<'listBlocks', 'blocks'>;
  /**
   * One block by height or hash; 404 when absent.
   * @example const { block } = await client.blocks.get(812345)
   */
  get(heightOrHash: HeightOrHash): Res<'getBlock'>;
  /**
   * The block's certificate, optionally with its proof; 404 when the block has none.
   * @example const { certificate } = await client.blocks.certificate(812345, { includeProof: true })
   */
  certificate(heightOrHash: HeightOrHash, query?: QueryOf<'getBlockCertificate'>): Res<'getBlockCertificate'>;
  /**
   * The outputs of the block's coinbase.
   * @example const { outputs } = await client.blocks.coinbaseOutputs(812345)
   */
  coinbaseOutputs(heightOrHash: HeightOrHash): Res<'getBlockCoinbaseOutputs'>;
  /**
   * Every output created in the block, in chain order (paged).
   * @example for await (const o of client.blocks.outputs(812345).all()) console.log(o.value)
   */
  outputs(
    heightOrHash: HeightOrHash,
    query?: QueryOf<'listBlockOutputs'>,
  ): ListRequest<'listBlockOutputs', 'outputs'>;
  /**
   * The node's stored block JSON.
   * @example const { raw } = await client.blocks.raw(812345)
   */
  raw(heightOrHash: HeightOrHash): Res<'getBlockRaw'>;
  /**
   * The block's transactions in chain order (paged).
   * @example const { txs } = await client.blocks.txs('00000000…', { limit: 100 })
   */
  txs(heightOrHash: HeightOrHash, query?: QueryOf<'listBlockTxs'>): ListRequest<'listBlockTxs', 'txs'>;
}

/** Transactions: `/v1/txs…`. */
export interface TxsApi {
  /**
   * Recent transactions, newest first (paged).
   * @example const { txs } = await client.txs.list({ limit: 25 })
   */
  list(query?: QueryOf<'listTxs'>): ListRequest<'listTxs', 'txs'>;
  /**
   * One transaction; 404 when absent.
   * @example const { tx } = await client.txs.get(txid)
   */
  get(txid: string): Res<'getTx'>;
  /**
   * Inputs, outputs, fee, net flow per address and counterparties.
   * @example const { flow } = await client.txs.flow(txid)
   */
  flow(txid: string): Res<'getTxFlow'>;
  /**
   * The transaction's inputs with their spent outputs (paged).
   * @example const inputs = await client.txs.inputs(txid).toArray()
   */
  inputs(txid: string, query?: QueryOf<'listTxInputs'>): ListRequest<'listTxInputs', 'inputs'>;
  /**
   * The transaction's outputs with spend state (paged).
   * @example const { outputs } = await client.txs.outputs(txid)
   */
  outputs(txid: string, query?: QueryOf<'listTxOutputs'>): ListRequest<'listTxOutputs', 'outputs'>;
  /**
   * The node's stored transaction JSON.
   * @example const { raw } = await client.txs.raw(txid)
   */
  raw(txid: string): Res<'getTxRaw'>;
  /**
   * Confirmed or in the mempool; for a confirmed transaction its block, confirmations, a merkle proof of
   * inclusion and the block header's bytes, to check against headers the caller trusts.
   * @example const { status } = await client.txs.status(txid); if (status.confirmed) console.log(status.merkleProof)
   */
  status(txid: string): Res<'getTxStatus'>;
  /**
   * Whether each output is spent, and by which transaction, input and height, in output order (paged).
   * @example const spends = await client.txs.outspends(txid).toArray()
   */
  outspends(txid: string, query?: QueryOf<'listTxOutspends'>): ListRequest<'listTxOutspends', 'outspends'>;
}

/** Addresses: `/v1/addresses/{address}…` (never 404: an unseen address has zero totals). */
export interface AddressesApi {
  /**
   * Balance, totals, first/last seen and label.
   * @example const { address } = await client.addresses.get('dvt1q…'); console.log(address.balance)
   */
  get(address: string): Res<'getAddress'>;
  /**
   * The address's transactions, newest first (paged).
   * @example for await (const tx of client.addresses.txs('dvt1q…').all({ max: 500 })) console.log(tx.txid)
   */
  txs(address: string, query?: QueryOf<'listAddressTxs'>): ListRequest<'listAddressTxs', 'txs'>;
  /**
   * Unspent outputs, newest first (paged).
   * @example const utxos = await client.addresses.utxos('dvt1q…', { limit: 100 }).toArray()
   */
  utxos(address: string, query?: QueryOf<'listAddressUtxos'>): ListRequest<'listAddressUtxos', 'utxos'>;
  /**
   * The balance at the end of each UTC day with activity, oldest first.
   * @example const { history } = await client.addresses.balanceHistory('dvt1q…')
   */
  balanceHistory(address: string): Res<'getAddressBalanceHistory'>;
  /**
   * Inflow/outflow totals and 24 h / 7 d / 30 d windows.
   * @example const { summary } = await client.addresses.flowSummary('dvt1q…')
   */
  flowSummary(address: string): Res<'getAddressFlowSummary'>;
  /**
   * What each transaction received and sent, newest first (paged).
   * @example const { flows } = await client.addresses.flows('dvt1q…', { limit: 50 })
   */
  flows(address: string, query?: QueryOf<'listAddressFlows'>): ListRequest<'listAddressFlows', 'flows'>;
  /**
   * Summaries of many addresses in one request (`/v1/addresses?addresses=…`), in the order given, repeats once;
   * at most 50 without an API key, 200 with one.
   * @example const { addresses } = await client.addresses.getMany(['dvt1q…', 'dvt1q…'])
   */
  getMany(addresses: readonly string[]): Res<'getAddresses'>;
  /**
   * The merged history of many addresses, newest first, each transaction once with received/sent/net summed
   * over the given addresses it touched (paged; `.all()` follows the cursor).
   * @example for await (const tx of client.addresses.txsOfMany(wallet).all()) console.log(tx.txid, tx.net)
   */
  txsOfMany(
    addresses: readonly string[],
    query?: Omit<QueryOf<'listMultiAddressTxs'>, 'addresses'>,
  ): ListRequest<'listMultiAddressTxs', 'txs'>;
  /**
   * The unspent outputs of many addresses merged, newest first, each naming its address (paged).
   * @example const utxos = await client.addresses.utxosOfMany(wallet, { limit: 100 }).toArray()
   */
  utxosOfMany(
    addresses: readonly string[],
    query?: Omit<QueryOf<'listMultiAddressUtxos'>, 'addresses'>,
  ): ListRequest<'listMultiAddressUtxos', 'utxos'>;
  /**
   * Unconfirmed activity: the confirmed balance with the mempool's totals and the balance including them
   * (`mempool`), and the address's mempool transactions, newest first (paged over `txs`).
   * @example const { mempool, txs } = await client.addresses.mempool('dvt1q…'); console.log(mempool.balanceWithMempool)
   */
  mempool(address: string, query?: QueryOf<'listAddressMempool'>): ListRequest<'listAddressMempool', 'txs'>;
}

/**
 * A wallet named by its extended public key or output descriptor: `/v1/wallet?key=…`. The key goes in the query,
 * encoded by the client (a descriptor holds `/`, `(`, `#`, `'`, `<`, `;`); never pass a private key.
 */
export interface WalletApi {
  /**
   * Balance, totals, the used addresses with their paths and the first unused receive and change addresses,
   * discovered under the gap limit (`gap`, 1–100, default 20).
   * @example const { wallet } = await client.wallet.get('wpkh([d34db33f/84h/1h/0h]tpub…/<0;1>/*)#…', { gap: 30 })
   */
  get(key: string, query?: Omit<QueryOf<'getWallet'>, 'key'>): Res<'getWallet'>;
  /**
   * The merged history of the wallet's used addresses, newest first (paged; `.all()` follows the cursor).
   * @example for await (const tx of client.wallet.txs(tpub).all()) console.log(tx.txid, tx.net)
   */
  txs(key: string, query?: Omit<QueryOf<'listWalletTxs'>, 'key'>): ListRequest<'listWalletTxs', 'txs'>;
  /**
   * The unspent outputs of the wallet's used addresses, newest first, each naming its address (paged).
   * @example const utxos = await client.wallet.utxos(tpub, { limit: 100 }).toArray()
   */
  utxos(
    key: string,
    query?: Omit<QueryOf<'listWalletUtxos'>, 'key'>,
  ): ListRequest<'listWalletUtxos', 'utxos'>;
}

/** Miners (payout addresses): `/v1/miners…`. */
export interface MinersApi {
  /**
   * Payout addresses by mined blocks, most first (paged).
   * @example const { miners } = await client.miners.top({ limit: 10 })
   */
  top(query?: QueryOf<'listTopMiners'>): ListRequest<'listTopMiners', 'miners'>;
  /**
   * A payout address's totals (`miner`) and the blocks it mined, newest first (paged over `blocks`).
   * @example const { miner, blocks } = await client.miners.get('dvt1q…')
   */
  get(address: string, query?: QueryOf<'getMiner'>): ListRequest<'getMiner', 'blocks'>;
  /**
   * Mined blocks per UTC day.
   * @example const { days } = await client.miners.blocksOverTime('dvt1q…')
   */
  blocksOverTime(address: string): Res<'getMinerBlocksOverTime'>;
}

/** Pools: `/v1/pools…`. */
export interface PoolsApi {
  /**
   * Pools ranked by blocks over a window (a ranking, not a paged list).
   * @example const { pools } = await client.pools.top({ window: '30d', limit: 5 })
   */
  top(query?: QueryOf<'listTopPools'>): Res<'listTopPools'>;
  /**
   * A pool's definition, totals and payout addresses (never 404: an unknown id has zero totals and
   * `seen: false`).
   * @example const { pool } = await client.pools.get('viabtc')
   */
  get(poolId: string): Res<'getPool'>;
  /**
   * Blocks the pool mined per UTC day.
   * @example const { days } = await client.pools.blocksOverTime('viabtc')
   */
  blocksOverTime(poolId: string): Res<'getPoolBlocksOverTime'>;
  /**
   * The pool's coinbase payout outputs, newest first (paged).
   * @example const { outputs } = await client.pools.payoutOutputs('viabtc', { limit: 20 })
   */
  payoutOutputs(
    poolId: string,
    query?: QueryOf<'listPoolPayoutOutputs'>,
  ): ListRequest<'listPoolPayoutOutputs', 'outputs'>;
}

/** Analytics: `/v1/analytics/…`. */
export interface AnalyticsApi {
  /**
   * Difficulty, hashrate estimates, node height, indexer lag.
   * @example const { network } = await client.analytics.network()
   */
  network(): Res<'getNetworkAnalytics'>;
  /**
   * Proof-of-useful-work figures.
   * @example const { pouw } = await client.analytics.pouw()
   */
  pouw(): Res<'getPouwAnalytics'>;
  /**
   * Circulating supply.
   * @example const { supply } = await client.analytics.supply()
   */
  supply(): Res<'getSupplyAnalytics'>;
  /**
   * Pool shares.
   * @example const { pools } = await client.analytics.pools()
   */
  pools(): Res<'getPoolAnalytics'>;
  /**
   * Stored market snapshots and the health of the market-data cache.
   * @example const { market } = await client.analytics.market()
   */
  market(): Res<'getMarketAnalytics'>;
}

/** Market data: `/v1/market…` (503 with Retry-After until first fetched). */
export interface MarketApi {
  /**
   * Price, change, volume and market cap per vs-currency.
   * @example const { market } = await client.market.get()
   */
  get(): Res<'getMarket'>;
  /**
   * Price history of one window.
   * @example const { chart } = await client.market.chart({ days: 30, vsCurrency: 'usd' })
   */
  chart(query?: QueryOf<'getMarketChart'>): Res<'getMarketChart'>;
}

/** Live events: `/v1/events` (server-sent events). */
export interface EventsApi {
  /**
   * Subscribes to live events: an async iterable that yields each event once, in order, reconnecting (and
   * resuming after the last id it yielded) when the connection drops or the server closes it. Ends when
   * `signal` aborts or the loop breaks.
   * @example
   * const ac = new AbortController();
   * const sub = client.events.subscribe({ topics: ['block', 'reorg'], signal: ac.signal, onReset: (r) => resync(r) });
   * for await (const event of sub) if (event.type === 'block') console.log(event.data.height);
   * save(sub.lastEventId); // later: client.events.subscribe({ lastEventId: saved })
   */
  subscribe(options?: SubscribeOptions): EventSubscription;
}

/** The typed client of the explorer /v1 API: one method per operation, grouped by resource. */
export interface ExplorerClient {
  blocks: BlocksApi;
  txs: TxsApi;
  addresses: AddressesApi;
  wallet: WalletApi;
  miners: MinersApi;
  pools: PoolsApi;
  analytics: AnalyticsApi;
  market: MarketApi;
  events: EventsApi;
  /**
   * Resolves a height, hash, txid, address, miner, pool or label; every match, best first.
   * @example const { matches } = await client.search('812345')
   */
  search(q: string): Res<'search'>;
  /**
   * Autocomplete suggestions for a prefix.
   * @example const { suggestions } = await client.suggest('0000a', { limit: 5 })
   */
  suggest(q: string, query?: Omit<QueryOf<'suggest'>, 'q'>): Res<'suggest'>;
  /**
   * The node's mempool summary, with the fee estimates; 503 when the node cannot answer.
   * @example const { mempool } = await client.mempool()
   */
  mempool(): Res<'getMempool'>;
  /**
   * Recommended fee rates (base units per vbyte) for the next block, ~30 min, ~1 h and eventually.
   * @example const { fees } = await client.fees(); const rate = fees.halfHour
   */
  fees(): Res<'getFees'>;
  /**
   * The fee rate for a confirmation target in Blockbook's form (`/api/v1/estimatefee/{blocks}`): coins per
   * 1,000 virtual bytes as a decimal string, from the same estimates as `fees()`.
   * @example const { result } = await client.blockbookEstimateFee(2) // '0.00001'
   */
  blockbookEstimateFee(
    blocks: number,
    query?: QueryOf<'getBlockbookEstimateFee'>,
  ): Promise<ResultOf<'getBlockbookEstimateFee'>>;
  /**
   * Every labelled address and pool definition.
   * @example const { labels, pools } = await client.knownAddresses()
   */
  knownAddresses(): Res<'listKnownAddresses'>;
  /**
   * API, database, node and indexer status (always 200; `degraded` lists what is down).
   * @example const { status } = await client.status(); if (!status.healthy) console.warn(status.degraded)
   */
  status(): Res<'getStatus'>;
  /**
   * Who the API thinks you are, and your rate-limit bucket.
   * @example const { identity, bucket } = await client.me()
   */
  me(): Res<'getMe'>;
  /**
   * The OpenAPI 3.1 document (served as is, without the envelope).
   * @example const doc = await client.openapi(); console.log(Object.keys(doc.paths as object))
   */
  openapi(): Promise<OpenApiDocument>;
  /**
   * Any operation by its operation id, with core's input shape: the escape hatch the methods are built on.
   * @example const { block } = await client.request('getBlock', { params: { heightOrHash: '812345' } })
   */
  request<K extends OperationId>(operationId: K, ...args: RequestArgs<K>): Promise<ResultOf<K>>;
}
