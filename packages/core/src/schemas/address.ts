import { z } from 'zod';
import { Amount, Count, Hash64, Height, LabelSchema, SeenSchema, SignedAmount, UnixTime } from './common.js';
import { TxSchema } from './tx.js';

/** An address's totals. */
export const AddressSummarySchema = z
  .object({
    address: z.string(),
    seen: z
      .boolean()
      .describe('False for a well-formed address that no indexed transaction touches (all totals 0).'),
    label: LabelSchema.nullable(),
    balance: Amount,
    received: Amount.describe('Total ever received.'),
    sent: Amount.describe('Total ever spent.'),
    txCount: Count,
    utxoCount: Count,
    firstSeen: SeenSchema.nullable(),
    lastSeen: SeenSchema.nullable(),
  })
  .meta({ id: 'AddressSummary' });

/** An address summary as the API returns it. */
export type AddressSummary = z.infer<typeof AddressSummarySchema>;

/** A transaction touching an address, with what it did to the address. */
export const AddressTxSchema = TxSchema.extend({
  received: Amount,
  sent: Amount,
  net: SignedAmount,
  balanceAfter: Amount.describe('The address balance right after this transaction.'),
}).meta({ id: 'AddressTx' });

/** An address transaction as the API returns it. */
export type AddressTx = z.infer<typeof AddressTxSchema>;

/** One row of an address's flow: the change one transaction made. */
export const FlowRowSchema = z
  .object({
    txid: Hash64,
    blockHeight: Height,
    blockHash: Hash64,
    blockIndex: Count,
    time: UnixTime,
    received: Amount,
    sent: Amount,
    net: SignedAmount,
    balance: Amount.describe('Balance after this transaction.'),
  })
  .meta({ id: 'FlowRow' });

/** A flow row as the API returns it. */
export type FlowRow = z.infer<typeof FlowRowSchema>;

/** An unspent output of an address. */
export const UtxoSchema = z
  .object({
    txid: Hash64,
    vout: Count,
    value: Amount,
    blockHeight: Height,
    blockHash: Hash64,
    blockIndex: Count.describe('Position of the creating transaction in its block.'),
    time: UnixTime,
    confirmations: z.int().min(1),
    scriptType: z.string(),
    scriptHex: z.string(),
    isCoinbase: z.boolean(),
  })
  .meta({ id: 'Utxo' });

/** A UTXO as the API returns it. */
export type Utxo = z.infer<typeof UtxoSchema>;

/** The balance at the end of one UTC day with activity. */
export const BalancePointSchema = z
  .object({
    date: z.string().describe('UTC day, YYYY-MM-DD.'),
    height: Height.describe('Last block of the day that touched the address.'),
    time: UnixTime.describe('Time of that block.'),
    balance: Amount.describe('Balance after the day.'),
    received: Amount,
    sent: Amount,
    txCount: Count,
  })
  .meta({ id: 'BalancePoint' });

/** A balance-history point. */
export type BalancePoint = z.infer<typeof BalancePointSchema>;

/** In and out totals over a window. */
export const FlowWindowSchema = z
  .object({ inflow: Amount, outflow: Amount, net: SignedAmount, txCount: Count })
  .meta({ id: 'FlowWindow' });

/** An address's inflow/outflow summary, overall and over recent windows. */
export const FlowSummarySchema = z
  .object({
    address: z.string(),
    inflow: Amount,
    outflow: Amount,
    net: SignedAmount,
    txCount: Count,
    receivingTxCount: Count.describe('Transactions that paid the address.'),
    spendingTxCount: Count.describe('Transactions that spent from the address.'),
    windows: z
      .object({ '24h': FlowWindowSchema, '7d': FlowWindowSchema, '30d': FlowWindowSchema })
      .describe(
        'Measured back from the indexed tip’s block time, so an old chain still shows its last activity.',
      ),
    firstSeen: SeenSchema.nullable(),
    lastSeen: SeenSchema.nullable(),
  })
  .meta({ id: 'FlowSummary' });

/** A flow summary as the API returns it. */
export type FlowSummary = z.infer<typeof FlowSummarySchema>;

/** A transaction of a many-address history: what it did to the asked addresses together. */
export const MultiAddressTxSchema = TxSchema.extend({
  received: Amount.describe('What the transaction paid to the asked addresses, summed over them.'),
  sent: Amount.describe('What the transaction spent from the asked addresses, summed over them.'),
  net: SignedAmount.describe('received − sent: the change to the asked addresses’ total balance.'),
  addresses: z
    .array(z.string())
    .min(1)
    .describe('The asked addresses the transaction touched, in the order they were asked.'),
}).meta({ id: 'MultiAddressTx' });

/** A many-address history transaction as the API returns it. */
export type MultiAddressTx = z.infer<typeof MultiAddressTxSchema>;

/** An unspent output of one of several asked addresses. */
export const MultiAddressUtxoSchema = UtxoSchema.extend({
  address: z.string().describe('The asked address the output pays.'),
}).meta({ id: 'MultiAddressUtxo' });

/** A many-address UTXO as the API returns it. */
export type MultiAddressUtxo = z.infer<typeof MultiAddressUtxoSchema>;

/** A transaction in the chain node's mempool that pays or spends from an address, with what it does to it. */
export const AddressMempoolTxSchema = z
  .object({
    txid: Hash64,
    firstSeen: UnixTime.describe('Unix time in seconds when the chain node first saw the transaction.'),
    received: Amount.describe('What the transaction pays to the address.'),
    sent: Amount.describe(
      'What the transaction spends from the address (its outputs, confirmed or unconfirmed).',
    ),
    net: SignedAmount.describe('received − sent.'),
    fee: Amount.describe('The transaction’s fee, as the node reports it.'),
    vsize: Count.describe('The transaction’s virtual size in vbytes.'),
    feeRate: z.number().describe('Fee per virtual byte, in base units (two decimals).'),
  })
  .meta({ id: 'AddressMempoolTx' });

/** An address's mempool transaction as the API returns it. */
export type AddressMempoolTx = z.infer<typeof AddressMempoolTxSchema>;

/** An address's confirmed balance with its unconfirmed activity, read together. */
export const AddressMempoolSchema = z
  .object({
    address: z.string(),
    balance: Amount.describe(
      'Confirmed balance, as the indexed blocks leave it (as /v1/addresses/{address}).',
    ),
    mempoolReceived: Amount.describe('What the address’s mempool transactions pay to it.'),
    mempoolSent: Amount.describe('What its mempool transactions spend from it.'),
    mempoolDelta: SignedAmount.describe('mempoolReceived − mempoolSent.'),
    balanceWithMempool: SignedAmount.describe(
      'balance + mempoolDelta: the balance once every mempool transaction of the address confirms.',
    ),
    mempoolTxCount: Count.describe('Mempool transactions that pay to or spend from the address.'),
    updatedAt: z
      .string()
      .nullable()
      .describe(
        'When the indexer’s mempool watcher took the reading these figures come from (ISO 8601); null before its first reading (the mempool figures are then 0).',
      ),
  })
  .meta({ id: 'AddressMempool' });

/** An address's balance with its mempool activity, as the API returns it. */
export type AddressMempool = z.infer<typeof AddressMempoolSchema>;
