import { merkleBlock } from '@explorer/chain';
import { ApiError, BadRequestError, NotFoundError, ServiceUnavailableError } from '../../errors.js';
import { currentFees, feeRateForBlocks } from '../../routes/fees.js';
import { type MempoolEntry, nodeMempool } from '../../routes/mempool.js';
import { ADDRESS_FORM, isFinal } from '../../routes/params.js';
import { txOf, txProofOf } from '../../routes/transactions.js';
import type { Outspend } from '../../schemas/tx.js';
import type { BlockRecord, TxDetail, TxRecord, UtxoRecord } from '../../store.js';
import {
  type AdapterBody,
  type AdapterContext,
  type AdapterRoute,
  defineAdapterRoute,
  type Protocol,
} from '../adapter.js';
import { mempoolTxDetail } from './mempool-tx.js';
import {
  type EsploraStats,
  esploraBlock,
  esploraBlockExtended,
  esploraBlockStatus,
  esploraTx,
  esploraTxStatus,
  feeHistogram,
} from './render.js';

/** Transactions per page of Esplora's confirmed lists (an address's history, a block's transactions). */
export const ESPLORA_PAGE = 25;
/** Mempool transactions an address's `/txs` and `/txs/mempool` list at most. */
export const ESPLORA_MEMPOOL_TXS = 50;
/** Unspent outputs `/address/:a/utxo` lists at most; past it the request is refused (electrs's limit). */
export const ESPLORA_UTXO_LIMIT = 500;
/** Largest body `POST /tx` takes (hex of a transaction of 4 MB of weight). */
const MAX_TX_HEX = 8_000_000;
/** Confirmation targets of `/fee-estimates`, electrs's. */
const FEE_TARGETS = [...Array.from({ length: 25 }, (_, i) => i + 1), 144, 504, 1008];

/** How long HTTP caches may keep what no longer changes, and what moves with the tip (electrs's TTLs). */
const TTL_LONG = 'public, max-age=157784630';
const TTL_SHORT = 'public, max-age=10';
const TTL_MEMPOOL = 'public, max-age=5';

const json = (value: unknown, cacheControl = TTL_SHORT): AdapterBody => ({
  contentType: 'application/json',
  body: JSON.stringify(value),
  cacheControl,
});
const text = (value: string, cacheControl = TTL_SHORT): AdapterBody => ({
  contentType: 'text/plain',
  body: value,
  cacheControl,
});

/** Options of the Esplora adapter. */
export interface EsploraOptions {
  /** Path prefix (default `/api`, as blockstream.info and mempool.space serve it). */
  prefix?: string;
  /**
   * Forward `POST /tx` to the node's `sendrawtransaction` (default false: the explorer is read-only, and the
   * request is refused with a 405 saying so).
   */
  broadcast?: boolean;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The Esplora protocol: errors are plain text, the message alone. */
export function esploraProtocol(prefix = '/api'): Protocol {
  return {
    name: 'esplora',
    prefix,
    unknownPath: (rest) => `endpoint does not exist ${JSON.stringify(rest)}`,
    error: (error: ApiError) => ({ contentType: 'text/plain', body: error.message }),
  };
}

function hash(value: string | undefined): string {
  if (value === undefined || !HEX64.test(value)) throw new BadRequestError('Invalid hex string');
  return value.toLowerCase();
}

function address(value: string | undefined): string {
  if (value === undefined || !ADDRESS_FORM.test(value)) throw new BadRequestError('Invalid Bitcoin address');
  return value;
}

/** A path number as electrs parses one (`Invalid number` otherwise). */
function integer(value: string | undefined): number {
  if (value === undefined || !/^\d{1,10}$/.test(value) || Number(value) > 0xffff_ffff)
    throw new BadRequestError('Invalid number');
  return Number(value);
}

/** An optional last segment as electrs reads one: a number, else (missing, `undefined`, garbage) none. */
const optionalNumber = (value: string | undefined): number | null =>
  value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : null;

/** The cache lifetime of something in a block at `height`: forever once final, else briefly. */
const ttlAt = (ctx: AdapterContext, height: number) =>
  isFinal(ctx.meta.indexedTip, height, ctx.config) ? TTL_LONG : TTL_SHORT;

async function blockOf(ctx: AdapterContext, blockHash: string): Promise<BlockRecord> {
  const block = await ctx.memoAtTip(`esplora-block:${blockHash}`, () =>
    ctx.store.getBlock({ hash: blockHash }),
  );
  if (!block) throw new NotFoundError('Block not found');
  return block;
}

/** Transactions in full from the index, shared per indexed tip (their outputs' spends do not enter them). */
async function details(ctx: AdapterContext, txids: readonly string[]): Promise<TxDetail[]> {
  if (txids.length === 0) return [];
  if (txids.length === 1) {
    const txid = txids[0]!;
    const one = await ctx.memo(
      `tx-detail:${txid}`,
      async () => (await ctx.store.getTxDetails([txid]))[0] ?? null,
      (d) => isFinal(ctx.meta.indexedTip, d.tx.blockHeight, ctx.config),
    );
    return one ? [one] : [];
  }
  return ctx.store.getTxDetails(txids);
}

/** A transaction from the index, else from the node's mempool; 404 when neither holds it. */
async function anyTx(ctx: AdapterContext, txid: string): Promise<{ detail: TxDetail; confirmed: boolean }> {
  const [indexed] = await details(ctx, [txid]);
  if (indexed) return { detail: indexed, confirmed: true };
  const waiting = await mempoolTxDetail(ctx, txid);
  if (!waiting) throw new NotFoundError('Transaction not found');
  return { detail: waiting, confirmed: false };
}

/**
 * The node's mempool entries, read with /v1's (one reading per MEMPOOL_CACHE_MS); empty where no node is
 * configured, 503 when it does not answer.
 */
async function mempool(ctx: AdapterContext): Promise<MempoolEntry[]> {
  return ctx.node ? (await nodeMempool(ctx)).entries : [];
}

/** An address's row of statistics with its mempool txids (one statement), shared per indexed tip. */
const chainStatsOf = (ctx: AdapterContext, a: string) =>
  ctx.memoAtTip(`esplora-address:${a}`, () => ctx.store.addressChainStats(a));

/** Mempool transactions of an address, newest first, in full (at most ESPLORA_MEMPOOL_TXS), from the node. */
async function addressMempoolTxs(ctx: AdapterContext, a: string): Promise<TxDetail[]> {
  const out: TxDetail[] = [];
  for (const txid of (await chainStatsOf(ctx, a)).mempoolTxids.slice(0, ESPLORA_MEMPOOL_TXS)) {
    const d = await mempoolTxDetail(ctx, txid);
    if (d) out.push(d);
  }
  return out;
}

/** The confirmed transactions of an address after the one `lastSeen` names (none: from the newest), in full. */
async function addressChainTxs(ctx: AdapterContext, a: string, lastSeen: string | null): Promise<TxDetail[]> {
  let after: readonly [number, number] | null = null;
  if (lastSeen !== null) {
    // A txid the index does not hold ends the history (electrs ends it at any txid outside it); one it holds
    // pages on from its place in the chain.
    const last = await txOf(ctx, lastSeen);
    if (!last) return [];
    after = [last.blockHeight, last.blockIndex];
  }
  // A store page may hold look-ahead rows past its limit.
  const rows = (await ctx.store.listAddressTxs(a, { limit: ESPLORA_PAGE, after, offset: 0 })).slice(
    0,
    ESPLORA_PAGE,
  );
  return details(
    ctx,
    rows.map((r) => r.txid),
  );
}

/** A `last_seen_txid` as electrs reads it: a txid, else (unparsable) none, which means the first page. */
const lastSeen = (value: string | undefined): string | null =>
  value !== undefined && HEX64.test(value) ? value.toLowerCase() : null;

const zeroStats = (): EsploraStats => ({
  funded_txo_count: 0,
  funded_txo_sum: 0,
  spent_txo_count: 0,
  spent_txo_sum: 0,
  tx_count: 0,
});

/** An address's statistics, confirmed and in the mempool, as Esplora's `/address/:a` counts them. */
async function addressStats(ctx: AdapterContext, a: string) {
  // One statement: the row and the txids of its mempool transactions, each then read from the node.
  const [stats, pending] = await Promise.all([chainStatsOf(ctx, a), addressMempoolTxs(ctx, a)]);
  const chain: EsploraStats = {
    funded_txo_count: stats.funded,
    funded_txo_sum: Number(stats.fundedSum),
    spent_txo_count: stats.spent,
    spent_txo_sum: Number(stats.spentSum),
    tx_count: stats.txCount,
  };
  const mem = zeroStats();
  for (const d of pending) {
    let touched = false;
    for (const o of d.outputs)
      if (o.address === a) {
        mem.funded_txo_count++;
        mem.funded_txo_sum += Number(o.value);
        touched = true;
      }
    for (const i of d.inputs)
      if (i.prevout?.address === a) {
        mem.spent_txo_count++;
        mem.spent_txo_sum += Number(i.prevout.value);
        touched = true;
      }
    if (touched) mem.tx_count++;
  }
  return { chain_stats: chain, mempool_stats: mem };
}

/** Every page of a paged store list, up to `max` rows (then refused with `tooMany`). */
async function allPages<T>(
  load: (after: T | null) => Promise<T[]>,
  pageSize: number,
  max: number,
  tooMany: string,
): Promise<T[]> {
  const out: T[] = [];
  let last: T | null = null;
  for (;;) {
    // A store page may hold look-ahead rows past its limit: only the page is taken.
    const page = (await load(last)).slice(0, pageSize);
    out.push(...page);
    if (out.length > max) throw new BadRequestError(tooMany);
    if (page.length < pageSize) return out;
    last = page[page.length - 1]!;
  }
}

/**
 * Esplora's REST API (electrs's paths and bodies) over the index: what BDK, LDK, LND's Esplora backend and the
 * wallets built on mempool.space's API call. See docs/esplora.md.
 */
export function esploraRoutes(options: EsploraOptions = {}): AdapterRoute[] {
  const prefix = options.prefix ?? '/api';
  const protocol = esploraProtocol(prefix);
  const route = (
    id: string,
    path: string,
    handler: (ctx: AdapterContext) => Promise<AdapterBody>,
    method?: 'POST',
  ) => defineAdapterRoute({ id: `esplora.${id}`, path: `${prefix}${path}`, protocol, handler, method });
  const tip = async (ctx: AdapterContext) => {
    if (!ctx.tip?.hash) throw new ServiceUnavailableError('the index holds no block yet');
    return ctx.tip as { height: number; hash: string };
  };

  const blockTxsPage = async (ctx: AdapterContext) => {
    const b = await blockOf(ctx, hash(ctx.params.hash));
    const start = optionalNumber(ctx.params.start) ?? 0;
    if (start % ESPLORA_PAGE !== 0)
      throw new BadRequestError(`start index must be a multiple of ${ESPLORA_PAGE}`);
    const txids = (await ctx.store.blockTxids({ hash: b.hash })) ?? [];
    if (start >= txids.length) throw new NotFoundError('start index out of range');
    const page = await details(ctx, txids.slice(start, start + ESPLORA_PAGE));
    return json(
      page.map((d) => esploraTx(d)),
      ttlAt(ctx, b.height),
    );
  };

  /**
   * An address's paths (`/address/:address…`), or the same by the SHA-256 of its output script
   * (`/scripthash/:hash…`): a script hash the index has not seen answers as an address without history.
   */
  const historyRoutes = (kind: 'address' | 'scripthash') => {
    const Kind = kind === 'address' ? 'address' : 'scriptHash';
    const subject = async (ctx: AdapterContext): Promise<string | null> => {
      if (kind === 'address') return address(ctx.params.subject);
      const h = ctx.params.subject;
      if (h === undefined || !HEX64.test(h)) throw new BadRequestError('Invalid scripthash');
      return ctx.memoAtTip(`esplora-scripthash:${h.toLowerCase()}`, () =>
        ctx.store.addressByScriptHash(h.toLowerCase()),
      );
    };
    const base = `/${kind}/{subject}`;
    const chainTxs = async (ctx: AdapterContext, last: string | null) => {
      const a = await subject(ctx);
      return a === null ? [] : (await addressChainTxs(ctx, a, last)).map((d) => esploraTx(d));
    };
    const pendingTxs = async (ctx: AdapterContext, a: string | null) =>
      a === null ? [] : addressMempoolTxs(ctx, a);
    return [
      route(Kind, base, async (ctx) => {
        const a = await subject(ctx);
        const { chain_stats, mempool_stats } =
          a === null ? { chain_stats: zeroStats(), mempool_stats: zeroStats() } : await addressStats(ctx, a);
        // electrs builds this object with json!{}: its keys come out in alphabetical order.
        return json(
          kind === 'address'
            ? { address: ctx.params.subject, chain_stats, mempool_stats }
            : { chain_stats, mempool_stats, scripthash: ctx.params.subject },
          TTL_SHORT,
        );
      }),
      route(`${Kind}Txs`, `${base}/txs`, async (ctx) => {
        // mempool.space's `after_txid`: the confirmed page after that transaction.
        const after = lastSeen(ctx.query.get('after_txid') ?? undefined);
        if (after !== null) return json(await chainTxs(ctx, after));
        const a = await subject(ctx);
        if (a === null) return json([]);
        const [pending, chain] = await Promise.all([pendingTxs(ctx, a), addressChainTxs(ctx, a, null)]);
        const confirmed = new Set(chain.map((d) => d.tx.txid));
        return json([
          ...pending.filter((d) => !confirmed.has(d.tx.txid)).map((d) => esploraTx(d, false)),
          ...chain.map((d) => esploraTx(d)),
        ]);
      }),
      route(`${Kind}TxsChain`, `${base}/txs/chain`, async (ctx) => json(await chainTxs(ctx, null))),
      route(`${Kind}TxsChainAfter`, `${base}/txs/chain/{last}`, async (ctx) =>
        json(await chainTxs(ctx, lastSeen(ctx.params.last))),
      ),
      route(`${Kind}TxsMempool`, `${base}/txs/mempool`, async (ctx) =>
        json(
          (await pendingTxs(ctx, await subject(ctx))).map((d) => esploraTx(d, false)),
          TTL_MEMPOOL,
        ),
      ),
      route(`${Kind}Utxo`, `${base}/utxo`, async (ctx) => {
        const a = await subject(ctx);
        return json(a === null ? [] : await utxosOf(ctx, a));
      }),
    ];
  };

  return [
    // Blocks.
    route('tipHeight', '/blocks/tip/height', async (ctx) => text(String((await tip(ctx)).height))),
    route('tipHash', '/blocks/tip/hash', async (ctx) => text((await tip(ctx)).hash)),
    route('blockHeight', '/block-height/{height}', async (ctx) => {
      const height = integer(ctx.params.height);
      const found = height <= (ctx.tip?.height ?? -1) ? await ctx.store.blockHashAt(height) : null;
      if (!found) throw new NotFoundError('Block not found');
      return text(found, ttlAt(ctx, height));
    }),
    route('blocks', '/blocks', async (ctx) => json((await recentBlocks(ctx, null)).map(esploraBlock))),
    route('blocksFrom', '/blocks/{start}', async (ctx) =>
      json((await recentBlocks(ctx, optionalNumber(ctx.params.start))).map(esploraBlock)),
    ),
    // mempool.space's extensions that its client (mempool.js) calls: blocks with `extras`, recommended fees.
    route('blockExtended', '/v1/block/{hash}', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      return json(esploraBlockExtended(b), ttlAt(ctx, b.height));
    }),
    route('blocksExtended', '/v1/blocks', async (ctx) =>
      json((await recentBlocks(ctx, null, 15, true)).map(esploraBlockExtended)),
    ),
    route('blocksExtendedFrom', '/v1/blocks/{start}', async (ctx) =>
      json((await recentBlocks(ctx, optionalNumber(ctx.params.start), 15, true)).map(esploraBlockExtended)),
    ),
    route('feesRecommended', '/v1/fees/recommended', async (ctx) => {
      const fees = await currentFees(ctx.store, ctx.now);
      // Whole base units per vbyte, rounded up (mempool.space's step on Bitcoin), never below the minimum.
      const up = (rate: number) => Math.max(Math.ceil(rate), Math.ceil(fees.minimum), 1);
      return json({
        fastestFee: up(fees.nextBlock),
        halfHourFee: up(fees.halfHour),
        hourFee: up(fees.hour),
        economyFee: up(fees.economy),
        minimumFee: up(fees.minimum),
      });
    }),
    route('block', '/block/{hash}', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      return json(esploraBlock(b), ttlAt(ctx, b.height));
    }),
    route('blockStatus', '/block/{hash}/status', async (ctx) => {
      const b = await ctx.store.getBlock({ hash: hash(ctx.params.hash) });
      return json(esploraBlockStatus(b), TTL_SHORT);
    }),
    route('blockTxids', '/block/{hash}/txids', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      return json((await ctx.store.blockTxids({ hash: b.hash })) ?? [], ttlAt(ctx, b.height));
    }),
    route('blockTxid', '/block/{hash}/txid/{index}', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      const index = integer(ctx.params.index);
      const txid = ((await ctx.store.blockTxids({ hash: b.hash })) ?? [])[index];
      if (txid === undefined) throw new NotFoundError('tx index out of range');
      return text(txid, ttlAt(ctx, b.height));
    }),
    route('blockTxs', '/block/{hash}/txs', blockTxsPage),
    route('blockTxsFrom', '/block/{hash}/txs/{start}', blockTxsPage),
    route('blockHeader', '/block/{hash}/header', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      const [first] = (await ctx.store.blockTxids({ hash: b.hash })) ?? [];
      const proof = first ? await ctx.store.getTxProof(first) : null;
      if (!proof) throw new NotFoundError('Block not found');
      return text(proof.header, ttlAt(ctx, b.height));
    }),
    route('blockRaw', '/block/{hash}/raw', async (ctx) => {
      const b = await blockOf(ctx, hash(ctx.params.hash));
      const node = ctx.node;
      if (!node) throw new ServiceUnavailableError('no chain node is configured to read the raw block from');
      const raw = await node.call<string>('getblock', [b.hash, 0]).catch(() => {
        throw new ServiceUnavailableError('the chain node is unreachable to read the raw block');
      });
      return {
        contentType: 'application/octet-stream',
        body: new Uint8Array(Buffer.from(raw, 'hex')),
        cacheControl: ttlAt(ctx, b.height),
      };
    }),

    // Transactions.
    route('tx', '/tx/{txid}', async (ctx) => {
      const { detail, confirmed } = await anyTx(ctx, hash(ctx.params.txid));
      return json(esploraTx(detail, confirmed), confirmed ? ttlAt(ctx, detail.tx.blockHeight) : TTL_MEMPOOL);
    }),
    route('txHex', '/tx/{txid}/hex', async (ctx) => text(await txHex(ctx, hash(ctx.params.txid)), TTL_LONG)),
    route('txRaw', '/tx/{txid}/raw', async (ctx) => ({
      contentType: 'application/octet-stream',
      body: new Uint8Array(Buffer.from(await txHex(ctx, hash(ctx.params.txid)), 'hex')),
      cacheControl: TTL_LONG,
    })),
    route('txStatus', '/tx/{txid}/status', async (ctx) => {
      // Always an answer: a txid neither confirmed nor known is as unconfirmed as one in the mempool.
      const tx = await txOf(ctx, hash(ctx.params.txid));
      if (tx) return json(esploraTxStatus(tx), ttlAt(ctx, tx.blockHeight));
      return json(esploraTxStatus(null), TTL_MEMPOOL);
    }),
    route('txMerkleProof', '/tx/{txid}/merkle-proof', async (ctx) => {
      const txid = hash(ctx.params.txid);
      const proof = await txProofOf(ctx, txid);
      if (!proof) throw new NotFoundError('Transaction not found or is unconfirmed');
      return json(
        { block_height: proof.blockHeight, merkle: proof.merkleProof.merkle, pos: proof.merkleProof.pos },
        ttlAt(ctx, proof.blockHeight),
      );
    }),
    route('txMerkleBlockProof', '/tx/{txid}/merkleblock-proof', async (ctx) => {
      const txid = hash(ctx.params.txid);
      const proof = await txProofOf(ctx, txid);
      if (!proof) throw new NotFoundError('Transaction not found or is unconfirmed');
      const txids = (await ctx.store.blockTxids({ hash: proof.blockHash })) ?? [];
      // gettxoutproof's bytes: the header, the block's transaction count and the partial merkle tree.
      const block = merkleBlock(
        Buffer.from(proof.header, 'hex'),
        txids.map((t) => Buffer.from(t, 'hex').reverse()),
        proof.blockIndex,
      );
      return text(block.toString('hex'), ttlAt(ctx, proof.blockHeight));
    }),
    route('txOutspend', '/tx/{txid}/outspend/{vout}', async (ctx) => {
      const txid = hash(ctx.params.txid);
      const vout = integer(ctx.params.vout);
      // Unchecked, as electrs answers it: an unknown transaction or output is not spent.
      const spends = (await txOf(ctx, txid)) ? await outspends(ctx, txid) : [];
      return json(spends[vout] ?? { spent: false }, TTL_SHORT);
    }),
    route('txOutspends', '/tx/{txid}/outspends', async (ctx) =>
      json(await outspends(ctx, hash(ctx.params.txid)), TTL_SHORT),
    ),
    route(
      'broadcast',
      '/tx',
      async (ctx) => {
        if (!options.broadcast || !ctx.node)
          throw new ApiError(
            405,
            'broadcasting is turned off on this explorer (it serves the chain read-only); send the transaction to a node',
            { allow: 'OPTIONS' },
          );
        const hex = (await ctx.body(MAX_TX_HEX)).trim();
        if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new BadRequestError('Invalid hex string');
        const node = ctx.node;
        const txid = await node.call<string>('sendrawtransaction', [hex]).catch((err: unknown) => {
          // The node's refusal, as electrs words it: its code and its own message.
          const e = err as { code?: unknown; rpcMessage?: unknown; message?: string };
          if (typeof e.code === 'number') {
            const message = typeof e.rpcMessage === 'string' ? e.rpcMessage : e.message;
            throw new BadRequestError(
              `sendrawtransaction RPC error: ${JSON.stringify({ code: e.code, message })}`,
            );
          }
          throw new ServiceUnavailableError('the chain node is unreachable to broadcast the transaction');
        });
        return text(txid, 'no-store');
      },
      'POST',
    ),

    // Addresses, and the same by script hash (what BDK asks by).
    ...historyRoutes('address'),
    ...historyRoutes('scripthash'),

    // Mempool and fees.
    route('mempool', '/mempool', async (ctx) => {
      const entries = await mempool(ctx);
      return json(
        {
          count: entries.length,
          vsize: entries.reduce((s, e) => s + e.vsize, 0),
          total_fee: entries.reduce((s, e) => s + e.fee, 0),
          fee_histogram: feeHistogram(entries),
        },
        TTL_MEMPOOL,
      );
    }),
    route('mempoolTxids', '/mempool/txids', async (ctx) =>
      json(
        (await mempool(ctx)).map((e) => e.txid),
        TTL_MEMPOOL,
      ),
    ),
    route('mempoolRecent', '/mempool/recent', async (ctx) => {
      const entries = [...(await mempool(ctx))].sort((a, b) => (b.time ?? 0) - (a.time ?? 0)).slice(0, 10);
      const out = [];
      for (const e of entries) {
        const d = await mempoolTxDetail(ctx, e.txid).catch(() => null);
        // electrs's `value` is what the transaction spends: its inputs' total.
        if (d) out.push({ txid: e.txid, fee: e.fee, vsize: e.vsize, value: Number(d.tx.valueIn) });
      }
      return json(out, TTL_MEMPOOL);
    }),
    route('feeEstimates', '/fee-estimates', async (ctx) => {
      const fees = await currentFees(ctx.store, ctx.now);
      const out: Record<string, number> = {};
      for (const n of FEE_TARGETS) out[String(n)] = feeRateForBlocks(fees, n);
      return json(out, TTL_SHORT);
    }),
  ];

  /**
   * Up to `limit` blocks from `start` (default the tip) down, as Esplora's `/blocks[/:start]` lists them; a start
   * above the tip is a 404, unless `clamp` (mempool.space's `/v1/blocks`).
   */
  async function recentBlocks(
    ctx: AdapterContext,
    start: number | null,
    limit = 10,
    clamp = false,
  ): Promise<BlockRecord[]> {
    const tipHeight = ctx.tip?.height ?? -1;
    if (start !== null && start > tipHeight && !clamp) throw new NotFoundError('Block not found');
    const top = Math.min(start ?? tipHeight, tipHeight);
    return top < 0
      ? []
      : (await ctx.store.listBlocks({ limit, after: [top + 1], offset: 0 })).slice(0, limit);
  }

  /** A transaction's hex: the bytes it was kept as (its node's JSON's `hex`), or the mempool's. */
  async function txHex(ctx: AdapterContext, txid: string): Promise<string> {
    const raw = (await ctx.store.getTxRaw(txid)) as { hex?: unknown } | null;
    if (raw && typeof raw.hex === 'string') return raw.hex;
    const node = ctx.node;
    if (node) {
      const hex = await node.call<string>('getrawtransaction', [txid, false]).catch(() => null);
      if (typeof hex === 'string') return hex;
    }
    throw new NotFoundError('Transaction not found');
  }

  /** An address's unspent outputs as electrs lists them: the confirmed ones the mempool does not spend, then the mempool's own. */
  async function utxosOf(ctx: AdapterContext, a: string) {
    const rows = await allPages<UtxoRecord>(
      (last) =>
        ctx.store.listAddressUtxos(a, {
          limit: 100,
          after: last ? [last.blockHeight, last.blockIndex, last.vout] : null,
          offset: 0,
        }),
      100,
      ESPLORA_UTXO_LIMIT,
      `Too many unspent transaction outputs (>${ESPLORA_UTXO_LIMIT}); page through /v1/addresses/{address}/utxos`,
    );
    const pending = await addressMempoolTxs(ctx, a);
    const spent = new Set(pending.flatMap((d) => d.inputs.map((i) => `${i.prevTxid}:${i.prevVout}`)));
    const confirmed = rows
      .filter((u) => !spent.has(`${u.txid}:${u.vout}`))
      .map((u) => ({
        txid: u.txid,
        vout: u.vout,
        status: esploraTxStatus({ blockHeight: u.blockHeight, blockHash: u.blockHash, time: u.time }),
        value: Number(u.value),
      }));
    const waiting = pending.flatMap((d) =>
      d.outputs.flatMap((o, vout) =>
        o.address === a && !spent.has(`${d.tx.txid}:${vout}`)
          ? [{ txid: d.tx.txid, vout, status: esploraTxStatus(null), value: Number(o.value) }]
          : [],
      ),
    );
    return [...confirmed, ...waiting];
  }

  /** What spent each output of a transaction (every output, in order), as Esplora's outspends. */
  async function outspends(ctx: AdapterContext, txid: string) {
    const tx = await txOf(ctx, txid);
    if (!tx) throw new NotFoundError('Transaction not found');
    const rows = await allPages<Outspend>(
      async (last) =>
        (await ctx.store.listTxOutspends(txid, {
          limit: 250,
          after: last ? [last.vout] : null,
          offset: 0,
        })) ?? [],
      250,
      Number.MAX_SAFE_INTEGER,
      '',
    );
    const spenders = rows.filter((r) => r.spentBy).map((r) => r.spentBy!.txid);
    const spent = new Map<string, TxRecord>();
    for (const s of [...new Set(spenders)]) {
      const t = await txOf(ctx, s);
      if (t) spent.set(s, t);
    }
    return rows.map((r) =>
      r.spentBy
        ? {
            spent: true,
            txid: r.spentBy.txid,
            vin: r.spentBy.vin,
            status: esploraTxStatus(spent.get(r.spentBy.txid) ?? null),
          }
        : { spent: false },
    );
  }
}
