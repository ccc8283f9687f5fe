import type { Column } from './output.js';

/** Columns of block lists (blocks, a miner's blocks). */
export const BLOCK_COLUMNS: readonly Column[] = [
  { header: 'height', value: (b) => b.height },
  { header: 'time', value: (b) => b.time, kind: 'time' },
  { header: 'hash', value: (b) => b.hash, kind: 'hash' },
  { header: 'txs', value: (b) => b.txCount },
  { header: 'size', value: (b) => b.size },
  { header: 'pool', value: (b) => b.pool?.name },
  { header: 'reward', value: (b) => b.reward, kind: 'amount' },
];

/** Columns of transaction lists (recent txs, a block's txs). */
export const TX_COLUMNS: readonly Column[] = [
  { header: 'height', value: (t) => t.blockHeight },
  { header: 'time', value: (t) => t.time, kind: 'time' },
  { header: 'txid', value: (t) => t.txid, kind: 'hash' },
  { header: 'type', value: (t) => t.type },
  { header: 'in', value: (t) => t.inputCount },
  { header: 'out', value: (t) => t.outputCount },
  { header: 'value out', value: (t) => t.valueOut, kind: 'amount' },
  { header: 'fee', value: (t) => t.fee, kind: 'amount' },
];

/** Columns of an address's transactions. */
export const ADDRESS_TX_COLUMNS: readonly Column[] = [
  { header: 'height', value: (t) => t.blockHeight },
  { header: 'time', value: (t) => t.time, kind: 'time' },
  { header: 'txid', value: (t) => t.txid, kind: 'hash' },
  { header: 'type', value: (t) => t.type },
  { header: 'received', value: (t) => t.received, kind: 'amount' },
  { header: 'sent', value: (t) => t.sent, kind: 'amount' },
  { header: 'balance after', value: (t) => t.balanceAfter, kind: 'amount' },
];

/** Columns of a many-address history: amounts summed over the asked addresses each transaction touched. */
export const MULTI_ADDRESS_TX_COLUMNS: readonly Column[] = [
  { header: 'height', value: (t) => t.blockHeight },
  { header: 'time', value: (t) => t.time, kind: 'time' },
  { header: 'txid', value: (t) => t.txid, kind: 'hash' },
  { header: 'received', value: (t) => t.received, kind: 'amount' },
  { header: 'sent', value: (t) => t.sent, kind: 'amount' },
  { header: 'net', value: (t) => t.net, kind: 'amount' },
  { header: 'addresses', value: (t) => (t.addresses as string[]).length },
];

/** Columns of address summaries (one row per address). */
export const ADDRESS_SUMMARY_COLUMNS: readonly Column[] = [
  { header: 'address', value: (a) => a.address },
  { header: 'label', value: (a) => a.label?.label ?? null },
  { header: 'balance', value: (a) => a.balance, kind: 'amount' },
  { header: 'received', value: (a) => a.received, kind: 'amount' },
  { header: 'txs', value: (a) => a.txCount },
  { header: 'utxos', value: (a) => a.utxoCount },
  { header: 'last seen', value: (a) => a.lastSeen?.height ?? null },
];

/** Columns of an address's mempool transactions. */
export const ADDRESS_MEMPOOL_COLUMNS: readonly Column[] = [
  { header: 'first seen', value: (t) => t.firstSeen, kind: 'time' },
  { header: 'txid', value: (t) => t.txid, kind: 'hash' },
  { header: 'received', value: (t) => t.received, kind: 'amount' },
  { header: 'sent', value: (t) => t.sent, kind: 'amount' },
  { header: 'fee', value: (t) => t.fee, kind: 'amount' },
  { header: 'fee rate', value: (t) => t.feeRate },
];

/** Columns of a wallet's used addresses. */
export const WALLET_ADDRESS_COLUMNS: readonly Column[] = [
  { header: 'path', value: (a) => a.path },
  { header: 'address', value: (a) => a.address },
  { header: 'balance', value: (a) => a.balance, kind: 'amount' },
  { header: 'received', value: (a) => a.received, kind: 'amount' },
  { header: 'txs', value: (a) => a.txCount },
  { header: 'utxos', value: (a) => a.utxoCount },
];

/** Columns of an address's flow rows. */
export const FLOW_COLUMNS: readonly Column[] = [
  { header: 'height', value: (f) => f.blockHeight },
  { header: 'time', value: (f) => f.time, kind: 'time' },
  { header: 'txid', value: (f) => f.txid, kind: 'hash' },
  { header: 'received', value: (f) => f.received, kind: 'amount' },
  { header: 'sent', value: (f) => f.sent, kind: 'amount' },
  { header: 'net', value: (f) => f.net, kind: 'amount' },
  { header: 'balance', value: (f) => f.balance, kind: 'amount' },
];

/** Columns of an address's unspent outputs. */
export const UTXO_COLUMNS: readonly Column[] = [
  { header: 'height', value: (u) => u.blockHeight },
  { header: 'time', value: (u) => u.time, kind: 'time' },
  { header: 'outpoint', value: (u) => `${String(u.txid).slice(0, 16)}…:${u.vout}` },
  { header: 'type', value: (u) => u.scriptType },
  { header: 'coinbase', value: (u) => (u.isCoinbase ? 'yes' : '') },
  { header: 'value', value: (u) => u.value, kind: 'amount' },
];

/** Columns of many addresses' merged UTXOs: the single list's, with the address each pays. */
export const MULTI_ADDRESS_UTXO_COLUMNS: readonly Column[] = [
  ...UTXO_COLUMNS,
  { header: 'address', value: (u) => u.address },
];

/** Columns of outputs (a block's, a transaction's, coinbase payouts). */
export const OUTPUT_COLUMNS: readonly Column[] = [
  { header: 'txid', value: (o) => o.txid, kind: 'hash' },
  { header: 'vout', value: (o) => o.vout },
  { header: 'address', value: (o) => o.address ?? `(${o.scriptType})` },
  { header: 'label', value: (o) => o.label },
  { header: 'value', value: (o) => o.value, kind: 'amount' },
  { header: 'spent', value: (o) => (o.spent ? 'yes' : 'no') },
];

/** Columns of a transaction's outspends: each output's spender, if any. */
export const OUTSPEND_COLUMNS: readonly Column[] = [
  { header: 'vout', value: (o) => o.vout },
  { header: 'spent', value: (o) => (o.spent ? 'yes' : 'no') },
  { header: 'spent by', value: (o) => o.spentBy?.txid ?? null, kind: 'hash' },
  { header: 'vin', value: (o) => o.spentBy?.vin ?? null },
  { header: 'height', value: (o) => o.spentBy?.height ?? null },
];

/** Columns of a transaction's inputs. */
export const INPUT_COLUMNS: readonly Column[] = [
  { header: 'vin', value: (i) => i.vin },
  {
    header: 'spends',
    value: (i) => (i.isCoinbase ? 'coinbase' : `${String(i.prevTxid).slice(0, 16)}…:${i.prevVout}`),
  },
  { header: 'address', value: (i) => i.address },
  { header: 'label', value: (i) => i.label },
  { header: 'value', value: (i) => i.value, kind: 'amount' },
];

/** Columns of payout-address rankings. */
export const MINER_COLUMNS: readonly Column[] = [
  { header: 'address', value: (m) => m.address },
  { header: 'label', value: (m) => m.label },
  { header: 'blocks', value: (m) => m.blocks },
  { header: 'share', value: (m) => m.share, kind: 'share' },
  { header: 'pool', value: (m) => m.pool?.name },
  { header: 'last block', value: (m) => m.lastHeight },
  { header: 'reward', value: (m) => m.reward, kind: 'amount' },
];

/** Columns of pool rankings. */
export const POOL_SHARE_COLUMNS: readonly Column[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'name', value: (p) => p.name },
  { header: 'blocks', value: (p) => p.blocks },
  { header: 'share', value: (p) => p.share, kind: 'share' },
];

/** Columns of a pool's coinbase payout outputs. */
export const PAYOUT_COLUMNS: readonly Column[] = [
  { header: 'height', value: (o) => o.blockHeight },
  { header: 'time', value: (o) => o.time, kind: 'time' },
  { header: 'txid', value: (o) => o.txid, kind: 'hash' },
  { header: 'vout', value: (o) => o.vout },
  { header: 'address', value: (o) => o.address },
  { header: 'value', value: (o) => o.value, kind: 'amount' },
  { header: 'spent', value: (o) => (o.spent ? 'yes' : 'no') },
];

/** Columns of daily counts. */
export const DAILY_COLUMNS: readonly Column[] = [
  { header: 'date', value: (d) => d.date },
  { header: 'blocks', value: (d) => d.blocks },
];

/** Columns of balance history. */
export const BALANCE_COLUMNS: readonly Column[] = [
  { header: 'date', value: (p) => p.date },
  { header: 'height', value: (p) => p.height },
  { header: 'txs', value: (p) => p.txCount },
  { header: 'received', value: (p) => p.received, kind: 'amount' },
  { header: 'sent', value: (p) => p.sent, kind: 'amount' },
  { header: 'balance', value: (p) => p.balance, kind: 'amount' },
];

/** Columns of search matches and suggestions. */
export const MATCH_COLUMNS: readonly Column[] = [
  { header: 'kind', value: (m) => m.kind },
  { header: 'id', value: (m) => m.id },
  { header: 'label', value: (m) => m.label },
  { header: 'path', value: (m) => m.path },
];
