import type { MemberOf, OperationId } from './types.js';

/** What the client knows of one operation at run time: its path and the body members it answers with. */
export interface OperationInfo<K extends OperationId = OperationId> {
  /** OpenAPI-style path, e.g. `/v1/blocks/{heightOrHash}`. */
  path: string;
  /** Body members besides ok/meta/pagination; the first one of a list holds its items. */
  members: readonly MemberOf<K>[];
  /** The body has `pagination` and can be followed with `.all()`. */
  list?: true;
  /** Served as is, without the envelope (the OpenAPI document). */
  raw?: true;
  /** A stream of Server-Sent Events (`/v1/events`), not one JSON body. */
  stream?: true;
}

const op = <K extends OperationId>(
  path: string,
  members: readonly MemberOf<K>[],
  kind?: 'list' | 'raw' | 'stream',
): OperationInfo<K> =>
  kind === 'list'
    ? { path, members, list: true }
    : kind === 'raw'
      ? { path, members, raw: true }
      : kind === 'stream'
        ? { path, members, stream: true }
        : { path, members };

const B = '/v1/blocks/{heightOrHash}';
const T = '/v1/txs/{txid}';
const A = '/v1/addresses/{address}';
const P = '/v1/pools/{poolId}';

/**
 * Every operation of core's route table. The member names are checked against core's types at compile time;
 * a test checks the paths against the route table itself, so this table cannot drift silently.
 */
export const operations: { [K in OperationId]: OperationInfo<K> } = {
  getOpenApiDocument: op('/v1/openapi.json', [], 'raw'),
  getDocs: op('/v1/docs', [], 'raw'),
  getMe: op('/v1/api/me', ['identity', 'bucket']),
  getStatus: op('/v1/status', ['status']),
  listBlocks: op('/v1/blocks', ['blocks'], 'list'),
  getBlock: op(B, ['block']),
  getBlockCertificate: op(`${B}/certificate`, ['certificate']),
  getBlockCoinbaseOutputs: op(`${B}/coinbase-outputs`, ['height', 'hash', 'outputs']),
  listBlockOutputs: op(`${B}/outputs`, ['outputs'], 'list'),
  getBlockRaw: op(`${B}/raw`, ['raw']),
  listBlockTxs: op(`${B}/txs`, ['txs'], 'list'),
  listTxs: op('/v1/txs', ['txs'], 'list'),
  getTx: op(T, ['tx']),
  getTxFlow: op(`${T}/flow`, ['flow']),
  listTxInputs: op(`${T}/inputs`, ['inputs'], 'list'),
  listTxOutputs: op(`${T}/outputs`, ['outputs'], 'list'),
  getTxRaw: op(`${T}/raw`, ['raw']),
  getTxStatus: op(`${T}/status`, ['status']),
  listTxOutspends: op(`${T}/outspends`, ['outspends'], 'list'),
  getAddress: op(A, ['address']),
  listAddressTxs: op(`${A}/txs`, ['txs'], 'list'),
  listAddressUtxos: op(`${A}/utxos`, ['utxos'], 'list'),
  getAddressBalanceHistory: op(`${A}/balance-history`, ['address', 'history']),
  getAddressFlowSummary: op(`${A}/flow-summary`, ['summary']),
  listAddressFlows: op(`${A}/flows`, ['flows'], 'list'),
  getAddresses: op('/v1/addresses', ['addresses']),
  listMultiAddressTxs: op('/v1/addresses/txs', ['txs'], 'list'),
  listMultiAddressUtxos: op('/v1/addresses/utxos', ['utxos'], 'list'),
  listAddressMempool: op(`${A}/mempool`, ['mempool', 'txs'], 'list'),
  getWallet: op('/v1/wallet', ['wallet']),
  listWalletTxs: op('/v1/wallet/txs', ['txs'], 'list'),
  listWalletUtxos: op('/v1/wallet/utxos', ['utxos'], 'list'),
  listTopMiners: op('/v1/miners/top', ['miners'], 'list'),
  getMiner: op('/v1/miners/{address}', ['blocks', 'miner'], 'list'),
  getMinerBlocksOverTime: op('/v1/miners/{address}/blocks-over-time', ['address', 'days']),
  listTopPools: op('/v1/pools/top', ['window', 'blocks', 'pools']),
  getPool: op(P, ['pool']),
  getPoolBlocksOverTime: op(`${P}/blocks-over-time`, ['poolId', 'days']),
  listPoolPayoutOutputs: op(`${P}/payout-outputs`, ['outputs'], 'list'),
  getNetworkAnalytics: op('/v1/analytics/network', ['network']),
  getPouwAnalytics: op('/v1/analytics/pouw', ['pouw']),
  getSupplyAnalytics: op('/v1/analytics/supply', ['supply']),
  getPoolAnalytics: op('/v1/analytics/pools', ['pools']),
  search: op('/v1/search', ['query', 'matches']),
  suggest: op('/v1/search/suggest', ['query', 'minLength', 'suggestions']),
  listKnownAddresses: op('/v1/known-addresses', ['labels', 'pools']),
  getMempool: op('/v1/mempool', ['mempool', 'fees']),
  getFees: op('/v1/fees', ['fees']),
  getBlockbookEstimateFee: op('/api/v1/estimatefee/{blocks}', ['result'], 'raw'),
  getBlockbookV2EstimateFee: op('/api/v2/estimatefee/{blocks}', ['result'], 'raw'),
  getMarket: op('/v1/market', ['market']),
  getMarketChart: op('/v1/market/chart', ['chart']),
  getMarketAnalytics: op('/v1/analytics/market', ['market']),
  getEvents: op('/v1/events', [], 'stream'),
};
