import { z } from 'zod';
import { intString } from '../pagination/params.js';
import { defineRoute } from '../route.js';
import { Count } from '../schemas/common.js';
import { type SearchMatch, SearchMatchSchema, type Suggestion, SuggestionSchema } from '../schemas/search.js';
import type { SearchStore } from '../store-search.js';
import { ADDRESS_SHAPE, hasValidAddressChecksum } from './address-checksum.js';

const MAX_HEIGHT = 2_147_483_647;
/** Longest accepted `q` (after trimming): the longest address the API accepts. */
export const SEARCH_MAX_LENGTH = 130;
/** Shortest hex, address or pool prefix /v1/search/suggest completes; shorter digits still suggest heights. */
export const SUGGEST_MIN_LENGTH = 3;
/** Most suggestions per request (and the default `limit`). */
export const SUGGEST_MAX = 10;
/** Most label matches one search returns. */
export const SEARCH_MAX_LABELS = 20;

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

const KIND_ORDER: Record<SearchMatch['kind'], number> = {
  block: 0,
  transaction: 1,
  address: 2,
  miner: 3,
  pool: 4,
  label: 5,
};

/** Resolves a query to every kind of thing it names, best match first (one store lookup). */
async function search(store: SearchStore, q: string): Promise<SearchMatch[]> {
  const height = /^\d{1,10}$/.test(q) && Number(q) <= MAX_HEIGHT ? Number(q) : null;
  const hash = /^[0-9a-fA-F]{64}$/.test(q) ? q.toLowerCase() : null;
  // Bech32 may be written in upper case (QR codes); the index stores the lower-case form.
  const addresses = !ADDRESS_SHAPE.test(q)
    ? []
    : q === q.toUpperCase() && q !== q.toLowerCase()
      ? [q, q.toLowerCase()]
      : [q];
  const found = await store.search({ height, hash, addresses, text: q, labelLimit: SEARCH_MAX_LABELS });
  const matches: SearchMatch[] = [];
  const block = (b: { hash: string; height: number }) =>
    matches.push({ kind: 'block', id: b.hash, label: null, path: blockPath(b.hash), height: b.height });
  if (found.height) block(found.height);
  if (found.block) block(found.block);
  if (found.tx)
    matches.push({
      kind: 'transaction',
      id: found.tx.txid,
      label: null,
      path: txPath(found.tx.txid),
      height: found.tx.blockHeight,
    });
  if (found.addresses.length > 0) {
    const rows = found.addresses;
    const known = rows.find((r) => r.seen || r.label !== null || r.minerBlocks !== null);
    const row = known ?? (hasValidAddressChecksum(q) ? rows[rows.length - 1] : undefined);
    if (row) {
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
    }
  }
  for (const p of found.pools)
    matches.push({ kind: 'pool', id: p.id, label: p.name, path: poolPath(p.id), blocks: p.blocks });
  for (const l of found.labels)
    matches.push({ kind: 'label', id: l.address, label: l.label, path: addressPath(l.address) });
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
  const [hs, pools, { blocks, txs }, addresses] = await Promise.all([
    heights.length ? store.searchBlocksAtHeights(heights) : none,
    long ? store.suggestPools(q, limit) : none,
    hex ? store.suggestHex(hex, limit) : Promise.resolve({ blocks: [], txs: [] }),
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

/** /v1/search and /v1/search/suggest. */
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
] as const;
