import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ServiceUnavailableError } from '../errors.js';
import type { ChainNode } from '../node.js';
import { intString } from '../pagination/params.js';
import { defineRoute } from '../route.js';
import { Count } from '../schemas/common.js';
import {
  type KnownLabel,
  KnownLabelSchema,
  type KnownPool,
  KnownPoolSchema,
  type MempoolSummary,
  MempoolSummarySchema,
  type SearchMatch,
  SearchMatchSchema,
  type Suggestion,
  SuggestionSchema,
} from '../schemas/search.js';
import type { SearchStore } from '../store-search.js';

const MAX_HEIGHT = 2_147_483_647;
/** Longest accepted `q` (after trimming): the longest address the API accepts. */
export const SEARCH_MAX_LENGTH = 130;
/** Shortest hex, address or pool prefix /v1/search/suggest completes; shorter digits still suggest heights. */
export const SUGGEST_MIN_LENGTH = 3;
/** Most suggestions per request (and the default `limit`). */
export const SUGGEST_MAX = 10;
/** Most label matches one search returns. */
export const SEARCH_MAX_LABELS = 20;
/** How long one mempool summary is reused, in milliseconds. */
export const MEMPOOL_CACHE_MS = 2_000;
/** Lower edges of the mempool fee-rate buckets, base units per vbyte; the last bucket is open. */
export const FEE_RATE_EDGES = [0, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200] as const;
const MEMPOOL_UNAVAILABLE = 'the chain node is unreachable; mempool data is unavailable';

// C0 and C1 control characters (and DEL); surrounding whitespace is trimmed before this check.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `q`: trimmed, 1–130 characters, no control characters. */
const qParam = z
  .string()
  .trim()
  .min(1, 'q must not be empty')
  .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`)
  .refine((s) => !CONTROL.test(s), 'q must not contain control characters');

const searchQuery = z.object({
  q: qParam
    .describe(
      `What to look for: a block height, a block hash, a txid, an address, a pool id or name, or a known label. Surrounding whitespace is ignored; 1 to ${SEARCH_MAX_LENGTH} characters, no control characters.`,
    )
    .meta({ examples: ['foundryusa'] }),
});

const suggestQuery = z.object({
  q: qParam
    .describe(
      `The prefix to complete (block height, block hash, txid, address, pool id or name). Hex, address and pool prefixes need at least ${SUGGEST_MIN_LENGTH} characters; digits complete heights from 1 character.`,
    )
    .meta({ examples: ['8123'] }),
  limit: intString('limit', 1, SUGGEST_MAX, SUGGEST_MAX)
    .optional()
    .describe(`Most suggestions to return, 1 to ${SUGGEST_MAX} (default ${SUGGEST_MAX}).`),
});

const blockPath = (hash: string) => `/v1/blocks/${hash}`;
const txPath = (txid: string) => `/v1/txs/${txid}`;
const addressPath = (address: string) => `/v1/addresses/${address}`;
const minerPath = (address: string) => `/v1/miners/${address}`;
const poolPath = (id: string) => `/v1/pools/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------------------------------------------------
// Address checksums: a valid address never used still resolves (to its empty address page); junk does not.

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;

/** True for a bech32 or bech32m string with a valid checksum (any HRP, no length cap: MWEB addresses are long). */
export function isBech32(text: string): boolean {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
  const s = text.toLowerCase();
  const sep = s.lastIndexOf('1');
  if (sep < 1 || sep + 7 > s.length) return false;
  let chk = 1;
  const feed = (v: number) => {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GEN[i]!;
  };
  const hrp = s.slice(0, sep);
  for (const c of hrp) feed(c.charCodeAt(0) >> 5);
  feed(0);
  for (const c of hrp) feed(c.charCodeAt(0) & 31);
  for (const c of s.slice(sep + 1)) {
    const v = BECH32_CHARSET.indexOf(c);
    if (v < 0) return false;
    feed(v);
  }
  return chk === 1 || chk === 0x2bc830a3;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** True for a Base58Check string whose 4-byte checksum matches (any version byte). */
export function isBase58Check(text: string): boolean {
  let n = 0n;
  for (const c of text) {
    const v = BASE58.indexOf(c);
    if (v < 0) return false;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  if (bytes.length < 5) return false;
  const payload = Uint8Array.from(bytes.slice(0, -4));
  const check = sha256(sha256(payload));
  return bytes.slice(-4).every((b, i) => b === check[i]);
}

const ADDRESS_SHAPE = /^[A-Za-z0-9]{14,130}$/;

/** True when `text` is an address by its own checksum (bech32/bech32m or Base58Check). */
export const hasValidAddressChecksum = (text: string) =>
  ADDRESS_SHAPE.test(text) && (isBech32(text) || isBase58Check(text));

// ---------------------------------------------------------------------------------------------------------
// Search

const KIND_ORDER: Record<SearchMatch['kind'], number> = {
  block: 0,
  transaction: 1,
  address: 2,
  miner: 3,
  pool: 4,
  label: 5,
};

/** Resolves a query to every kind of thing it names, best match first. */
async function search(store: SearchStore, q: string): Promise<SearchMatch[]> {
  const matches: SearchMatch[] = [];
  const tasks: Promise<void>[] = [];

  if (/^\d{1,10}$/.test(q) && Number(q) <= MAX_HEIGHT) {
    tasks.push(
      store.searchBlocksAtHeights([Number(q)]).then((rows) => {
        for (const b of rows)
          matches.push({ kind: 'block', id: b.hash, label: null, path: blockPath(b.hash), height: b.height });
      }),
    );
  }
  if (/^[0-9a-fA-F]{64}$/.test(q)) {
    const hex = q.toLowerCase();
    tasks.push(
      store.searchBlockByHash(hex).then((b) => {
        if (b)
          matches.push({ kind: 'block', id: b.hash, label: null, path: blockPath(b.hash), height: b.height });
      }),
      store.searchTx(hex).then((t) => {
        if (t)
          matches.push({
            kind: 'transaction',
            id: t.txid,
            label: null,
            path: txPath(t.txid),
            height: t.blockHeight,
          });
      }),
    );
  }
  if (ADDRESS_SHAPE.test(q)) {
    // Bech32 may be written in upper case (QR codes); the index stores the lower-case form.
    const candidates = q === q.toUpperCase() && q !== q.toLowerCase() ? [q, q.toLowerCase()] : [q];
    tasks.push(
      store.searchAddresses(candidates).then((rows) => {
        const known = rows.find((r) => r.seen || r.label !== null || r.minerBlocks !== null);
        const valid = hasValidAddressChecksum(q);
        const row = known ?? (valid ? rows[rows.length - 1] : undefined);
        if (!row) return;
        matches.push({
          kind: 'address',
          id: row.address,
          label: row.label,
          path: addressPath(row.address),
          seen: row.seen,
        });
        if (row.minerBlocks !== null)
          matches.push({
            kind: 'miner',
            id: row.address,
            label: row.label,
            path: minerPath(row.address),
            blocks: row.minerBlocks,
          });
      }),
    );
  }
  tasks.push(
    store.searchPools(q).then((rows) => {
      for (const p of rows)
        matches.push({ kind: 'pool', id: p.id, label: p.name, path: poolPath(p.id), blocks: p.blocks });
    }),
    store.searchLabels(q, SEARCH_MAX_LABELS).then((rows) => {
      for (const l of rows)
        matches.push({ kind: 'label', id: l.address, label: l.label, path: addressPath(l.address) });
    }),
  );
  await Promise.all(tasks);
  // A stable sort keeps each kind's own order (pools by name, labels by address).
  return matches.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}

/** Heights whose decimal form starts with `digits`, ascending, up to the tip, at most `limit`. */
export function heightCandidates(digits: string, tip: number, limit: number): number[] {
  if (!/^\d{1,10}$/.test(digits) || tip < 0) return [];
  if (digits.length > 1 && digits.startsWith('0')) return [];
  const base = Number(digits);
  if (base > tip) return [];
  const out = [base];
  if (base === 0) return out;
  for (let scale = 10; out.length < limit; scale *= 10) {
    const lo = base * scale;
    if (lo > tip) break;
    const hi = Math.min(lo + scale - 1, tip);
    for (let h = lo; h <= hi && out.length < limit; h++) out.push(h);
  }
  return out;
}

/** Prefix suggestions: heights, pools, block hashes, txids, addresses — in that order, at most `limit`. */
async function suggest(store: SearchStore, q: string, limit: number, tip: number): Promise<Suggestion[]> {
  const heights = heightCandidates(q, tip, limit);
  const long = q.length >= SUGGEST_MIN_LENGTH;
  const hex = long && q.length <= 64 && /^[0-9a-fA-F]+$/.test(q) ? q.toLowerCase() : null;
  const address = long && /^[A-Za-z0-9]+$/.test(q) ? q : null;
  const none = Promise.resolve([]);
  const [hs, pools, blocks, txs, addresses] = await Promise.all([
    heights.length ? store.searchBlocksAtHeights(heights) : none,
    long ? store.suggestPools(q, limit) : none,
    hex ? store.suggestBlocks(hex, limit) : none,
    hex ? store.suggestTxs(hex, limit) : none,
    address ? store.suggestAddresses(address, limit) : none,
  ]);
  const out: Suggestion[] = [
    ...hs.map((b) => ({
      kind: 'block' as const,
      id: b.hash,
      label: null,
      path: blockPath(b.hash),
      height: b.height,
    })),
    ...pools.map((p) => ({ kind: 'pool' as const, id: p.id, label: p.name, path: poolPath(p.id) })),
    ...blocks.map((b) => ({
      kind: 'block' as const,
      id: b.hash,
      label: null,
      path: blockPath(b.hash),
      height: b.height,
    })),
    ...txs.map((t) => ({
      kind: 'transaction' as const,
      id: t.txid,
      label: null,
      path: txPath(t.txid),
      height: t.blockHeight,
    })),
    ...addresses.map((a) => ({
      kind: 'address' as const,
      id: a.address,
      label: a.label,
      path: addressPath(a.address),
    })),
  ];
  const seen = new Set<string>();
  return out.filter((s) => !seen.has(`${s.kind}:${s.id}`) && seen.add(`${s.kind}:${s.id}`)).slice(0, limit);
}

// ---------------------------------------------------------------------------------------------------------
// Known addresses

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Labels by label (case-insensitively, then exactly), then address. */
export const compareLabels = (a: KnownLabel, b: KnownLabel) =>
  cmp(a.label.toLowerCase(), b.label.toLowerCase()) || cmp(a.label, b.label) || cmp(a.address, b.address);

/** Pools by name (case-insensitively, then exactly), then id. */
export const comparePools = (a: KnownPool, b: KnownPool) =>
  cmp(a.name.toLowerCase(), b.name.toLowerCase()) || cmp(a.name, b.name) || cmp(a.id, b.id);

// ---------------------------------------------------------------------------------------------------------
// Mempool

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const coinsToUnits = (coins: number) => Math.round(coins * 1e8);

/** Summarises `getmempoolinfo` and `getrawmempool true` (fees as `fees.base`, Core ≥ 0.19, or `fee`). */
export function summarizeMempool(info: unknown, verbose: unknown, now: number): MempoolSummary {
  const entries = Object.entries((verbose ?? {}) as Record<string, Record<string, unknown> | null>);
  const buckets = FEE_RATE_EDGES.map((min, i) => ({
    minFeeRate: min,
    maxFeeRate: FEE_RATE_EDGES[i + 1] ?? null,
    count: 0,
    vsize: 0,
  }));
  let bytes = 0;
  let totalFee = 0;
  const rated: { txid: string; rate: number }[] = [];
  for (const [txid, e] of entries) {
    const fees = e?.fees as Record<string, unknown> | undefined;
    const fee = coinsToUnits(num(fees?.base) ?? num(e?.fee) ?? 0);
    const vsize = Math.round(num(e?.vsize) ?? num(e?.size) ?? 0);
    const rate = vsize > 0 ? fee / vsize : 0;
    bytes += vsize;
    totalFee += fee;
    let i = buckets.length - 1;
    while (i > 0 && rate < FEE_RATE_EDGES[i]!) i--;
    const bucket = buckets[i]!;
    bucket.count++;
    bucket.vsize += vsize;
    rated.push({ txid, rate });
  }
  rated.sort((a, b) => b.rate - a.rate || cmp(a.txid, b.txid));
  const i = (info ?? {}) as Record<string, unknown>;
  const usage = num(i.usage);
  const minFee = num(i.mempoolminfee) ?? num(i.minrelaytxfee) ?? 0;
  return {
    count: entries.length,
    bytes,
    ...(usage !== null ? { usage: Math.round(usage) } : {}),
    totalFee: String(totalFee),
    // mempoolminfee is in coins per 1,000 vbytes.
    minFeeRate: coinsToUnits(minFee) / 1000,
    feeRateBuckets: buckets,
    sampleTxids: rated
      .filter((r) => /^[0-9a-f]{64}$/.test(r.txid))
      .slice(0, 10)
      .map((r) => r.txid),
    updatedAt: new Date(now).toISOString(),
  };
}

interface MempoolEntry {
  at: number;
  settled: boolean;
  promise: Promise<MempoolSummary>;
}

// One entry per node object, so two APIs over two nodes never share figures.
const mempoolCache = new WeakMap<ChainNode, MempoolEntry>();

/** The node's mempool summary, reused for MEMPOOL_CACHE_MS; concurrent requests share one pair of calls. */
async function mempoolOf(
  node: ChainNode,
  now: number,
): Promise<{ summary: MempoolSummary; cached: boolean }> {
  const hit = mempoolCache.get(node);
  if (hit && now - hit.at < MEMPOOL_CACHE_MS && now >= hit.at) {
    return { summary: await hit.promise, cached: hit.settled };
  }
  const entry: MempoolEntry = {
    at: now,
    settled: false,
    promise: Promise.all([node.call('getmempoolinfo', []), node.call('getrawmempool', [true])]).then(
      ([info, verbose]) => summarizeMempool(info, verbose, now),
    ),
  };
  mempoolCache.set(node, entry);
  entry.promise.then(
    () => {
      entry.settled = true;
    },
    // A failure is not kept: the next request asks the node again.
    () => {
      if (mempoolCache.get(node) === entry) mempoolCache.delete(node);
    },
  );
  return { summary: await entry.promise, cached: false };
}

// ---------------------------------------------------------------------------------------------------------

/** /v1/search, /v1/search/suggest, /v1/known-addresses and /v1/mempool. */
export const searchRoutes = [
  defineRoute({
    id: 'search',
    path: '/v1/search',
    perTip: true,
    tag: 'Search',
    summary: 'Resolve a height, hash, txid, address, miner, pool or label',
    description:
      'Looks the query up as every kind it could be — a 64-hex string as both block hash and txid — and returns all matches, best first: block, transaction, address, miner, pool, label. No match is 200 with an empty list.',
    query: searchQuery,
    response: {
      query: z.string().describe('The query as searched (trimmed).'),
      matches: z.array(SearchMatchSchema).describe('Everything the query names, best match first.'),
    },
    async handler(ctx) {
      const q = ctx.query.q;
      return { body: { query: q, matches: await search(ctx.store, q) } };
    },
  }),
  defineRoute({
    id: 'suggest',
    path: '/v1/search/suggest',
    perTip: true,
    tag: 'Search',
    summary: 'Autocomplete suggestions',
    description: `Completes a prefix: block heights (digits), pool ids and names, block hashes, txids and addresses, in that order, at most limit. Hex, address and pool prefixes shorter than ${SUGGEST_MIN_LENGTH} characters get no suggestions (200 with an empty list).`,
    query: suggestQuery,
    response: {
      query: z.string().describe('The prefix as completed (trimmed).'),
      minLength: Count.describe(
        `Shortest hex, address or pool prefix that is completed (${SUGGEST_MIN_LENGTH}); digits complete heights from 1.`,
      ),
      suggestions: z.array(SuggestionSchema).describe('At most limit suggestions, best first.'),
    },
    async handler(ctx) {
      const q = ctx.query.q;
      const suggestions = await suggest(ctx.store, q, ctx.query.limit ?? SUGGEST_MAX, ctx.meta.indexedTip);
      return { body: { query: q, minLength: SUGGEST_MIN_LENGTH, suggestions } };
    },
  }),
  defineRoute({
    id: 'listKnownAddresses',
    path: '/v1/known-addresses',
    perTip: true,
    tag: 'Labels',
    summary: 'Known address and pool labels',
    description:
      'Every labelled address (with its pool’s name when it names one) and every pool definition: ids, names, links, payout addresses and coinbase tag patterns. Labels are sorted by label then address, pools by name then id.',
    response: {
      labels: z
        .array(KnownLabelSchema)
        .describe('Every known label, by label (case-insensitive), then address.'),
      pools: z.array(KnownPoolSchema).describe('Every pool definition, by name (case-insensitive), then id.'),
    },
    async handler(ctx) {
      const store = ctx.store;
      const [labels, pools] = await Promise.all([store.knownLabels(), store.knownPools()]);
      return { body: { labels: labels.sort(compareLabels), pools: pools.sort(comparePools) } };
    },
  }),
  defineRoute({
    id: 'getMempool',
    path: '/v1/mempool',
    tag: 'Mempool',
    summary: 'Mempool summary',
    description:
      'Asked from the chain node (reused for 2 s): count, virtual size, total fee, minimum fee rate, a fee-rate histogram and the 10 highest-fee-rate txids. 503 when the node cannot answer.',
    response: { mempool: MempoolSummarySchema },
    async handler(ctx) {
      if (ctx.node === null) throw new ServiceUnavailableError(MEMPOOL_UNAVAILABLE);
      let result: { summary: MempoolSummary; cached: boolean };
      try {
        result = await mempoolOf(ctx.node, ctx.now);
      } catch {
        throw new ServiceUnavailableError(MEMPOOL_UNAVAILABLE);
      }
      if (result.cached) ctx.meta.cached = true;
      return { body: { mempool: result.summary } };
    },
  }),
] as const;
