import { z } from 'zod';
import { multiAddressTxsKey, multiAddressUtxosKey } from '../pagination/keys.js';
import { defineList, type ListContext } from '../pagination/list-route.js';
import { intString } from '../pagination/params.js';
import { defineRoute, type RouteContext } from '../route.js';
import { WalletSchema } from '../schemas/wallet.js';
import {
  discoverWallet,
  LOOKUP_WINDOW,
  readWalletKey,
  WALLET_GAP,
  WALLET_MAX_DERIVED,
  type WalletDiscovery,
  walletMaxDerived,
} from '../wallet/discover.js';
import { walletChainOf } from '../wallet/wallet-chain.js';
import { refuseOffset } from './address-lists.js';

// A wallet named by its extended public key or output descriptor, in the query (`?key=`): a descriptor holds
// `/`, `(`, `)`, `#`, `'`, `*`, `<`, `;`, which a path segment could only carry percent-encoded (docs/decisions.md).
// Its used addresses are discovered once per key, gap and indexed tip; the summary and both lists read them.

/** The longest key text read: a descriptor with an origin of a few steps and a checksum is under 250 characters. */
const KEY_MAX_LENGTH = 1_000;

const walletQuery = {
  key: z
    .string()
    .min(1, 'key must be an extended public key or a descriptor')
    .max(KEY_MAX_LENGTH, `key must be at most ${KEY_MAX_LENGTH} characters`)
    .describe(
      'An extended public key (xpub, ypub, zpub, tpub, upub, vpub; Pearl’s zpub, vpub) or a single-key descriptor (tr, wpkh, sh(wpkh), pkh) with a ranged key, e.g. wpkh([fp/84h/1h/0h]tpub…/<0;1>/*)#checksum. Percent-encode it. Never a private key.',
    )
    .meta({
      examples: [
        'tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M',
      ],
    }),
  gap: intString('gap', WALLET_GAP.min, WALLET_GAP.max, WALLET_GAP.default)
    .optional()
    .describe(
      `Gap limit: discovery ends after this many unused addresses in a row on each branch, ${WALLET_GAP.min} to ${WALLET_GAP.max} (default ${WALLET_GAP.default}).`,
    ),
};

/** Addresses a wallet request's rate-limit point pays for: about 5 ms of CPU for taproot ones. */
const ADDRESSES_PER_POINT = 20;

/**
 * The rate-limit points of a wallet request: 1, plus 1 per started 20 addresses its first discovery derives —
 * a window of max(gap, 100) addresses on each branch, so 1 + ⌈2·max(gap, 100) / 20⌉: 11 at every gap the API
 * takes. The CPU of a fresh key is that derivation (about 0.2–0.35 ms an address), which the gap does not change
 * below the window. Read from the query as sent, so a refused request costs what it asked for; a key derived
 * before (its addresses are kept) costs the same.
 * @example walletCost(new URLSearchParams('key=tpub…')) // 11
 */
export function walletCost(search: URLSearchParams): number {
  const text = search.get('gap');
  const asked = text !== null && /^\d{1,9}$/.test(text) ? Number(text) : WALLET_GAP.default;
  const gap = Math.min(WALLET_GAP.max, Math.max(WALLET_GAP.min, asked));
  return 1 + Math.ceil((2 * Math.max(gap, LOOKUP_WINDOW)) / ADDRESSES_PER_POINT);
}

type WalletContext = Pick<
  RouteContext<unknown, { key: string; gap?: number }>,
  'query' | 'store' | 'identity' | 'config' | 'tip' | 'memo' | 'memoAtTip' | 'walletDeriver'
>;

/**
 * The wallet of the request's key at the indexed tip: requests for one key, gap and bound at one tip within a
 * second share one discovery (the per-tip memo, bounded in entries and time); the derived addresses themselves
 * are kept longer, per key (`discoverWallet`).
 */
async function walletOf(ctx: WalletContext): Promise<WalletDiscovery> {
  const chain = await ctx.memo(
    'wallet:chain',
    async () => (await ctx.store.indexerState()).chain,
    () => false,
    {
      quiet: true,
    },
  );
  const key = readWalletKey(ctx.query.key, walletChainOf(chain));
  const gap = ctx.query.gap ?? WALLET_GAP.default;
  const bounds = ctx.config.walletMaxDerived ?? WALLET_MAX_DERIVED;
  const max = walletMaxDerived(ctx.identity, bounds);
  const refusal = (branch: number) =>
    `key: discovery would derive more than ${max} addresses on the ${branch === 0 ? 'receive' : 'change'} branch (used addresses followed by a gap of ${gap}); at most ${max} per branch ${
      ctx.identity.type === 'key' ? 'with an API key' : `without an API key (${bounds.key} with one)`
    }: read a wallet this deep address by address (/v1/addresses?addresses=…)`;
  // A discovery is a function of the key, the gap and the indexed chain: at a given tip it can never change.
  return ctx.memoAtTip(`wallet:${gap}:${max}:${key.descriptor}`, () =>
    discoverWallet(ctx.store, key, gap, max, refusal, ctx.walletDeriver),
  );
}

/** The scope of a wallet list's cursors: the key (as its descriptor) and the gap. */
const walletScope = (list: string, w: WalletDiscovery) => `${list}:${w.gap}:${w.key.descriptor}`;

const COST_TEXT =
  'A request costs 11 rate-limit points (1, and 1 per 20 of the 200 addresses its first discovery window derives); discovery derives at most 2,000 addresses per branch without an API key (4,000 with one), and refuses (400) a wallet that needs more.';

type ListCtx = ListContext<undefined, typeof walletQuery>;

/** The wallet routes: `/v1/wallet?key=…` (summary), `…/txs`, `…/utxos`. */
export const walletRoutes = [
  defineRoute({
    id: 'getWallet',
    path: '/v1/wallet',
    perTip: true,
    tag: 'Addresses',
    summary: 'A wallet from its extended public key or descriptor',
    description: `Balance, received, sent and transaction count of the wallet's used addresses (found under the gap limit), each used address with its derivation path, and the first unused receive and change addresses. ${COST_TEXT}`,
    query: z.object(walletQuery),
    cost: walletCost,
    response: { wallet: WalletSchema },
    async handler(ctx) {
      const w = await walletOf(ctx);
      const addresses = w.used.map((a) => a.address);
      const totals =
        addresses.length === 0
          ? { txCount: 0, received: '0', sent: '0' }
          : await ctx.store.getWalletTotals(addresses);
      return {
        body: {
          wallet: {
            descriptor: w.key.descriptor,
            script: w.key.script,
            gap: w.gap,
            branches: w.key.branchCount,
            balance: String(w.used.reduce((s, a) => s + BigInt(a.balance), 0n)),
            received: totals.received,
            sent: totals.sent,
            txCount: totals.txCount,
            utxoCount: w.used.reduce((n, a) => n + a.utxoCount, 0),
            derived: w.derived,
            used: w.used,
            firstUnused: { receive: w.firstUnused[0], change: w.firstUnused[1] },
          },
        },
      };
    },
  }),
  defineList({
    id: 'listWalletTxs',
    path: '/v1/wallet/txs',
    perTip: true,
    tag: 'Addresses',
    summary: 'Transactions of a wallet',
    description: `The merged history of the wallet's used addresses, newest first, each transaction once with its amounts summed over the wallet (as \`/v1/addresses/txs\`); cursors belong to the key and gap. ${COST_TEXT}`,
    query: walletQuery,
    cost: walletCost,
    items: 'txs',
    key: multiAddressTxsKey,
    parent: (ctx: ListCtx) => walletOf(ctx),
    scope: (ctx, w) => {
      refuseOffset(ctx.query);
      return walletScope('wallet-txs', w);
    },
    load: (ctx, page, w) =>
      w.used.length === 0
        ? Promise.resolve([])
        : ctx.store.listMultiAddressTxs(
            w.used.map((a) => a.address),
            page,
          ),
    confirmations: 'blockHeight',
  }),
  defineList({
    id: 'listWalletUtxos',
    path: '/v1/wallet/utxos',
    perTip: true,
    tag: 'Addresses',
    summary: 'Unspent outputs of a wallet',
    description: `The unspent outputs of the wallet's used addresses, newest first (as \`/v1/addresses/utxos\`), each naming the address it pays; cursors belong to the key and gap. ${COST_TEXT}`,
    query: walletQuery,
    cost: walletCost,
    items: 'utxos',
    key: multiAddressUtxosKey,
    parent: (ctx: ListCtx) => walletOf(ctx),
    scope: (ctx, w) => {
      refuseOffset(ctx.query);
      return walletScope('wallet-utxos', w);
    },
    load: (ctx, page, w) =>
      w.used.length === 0
        ? Promise.resolve([])
        : ctx.store.listMultiAddressUtxos(
            w.used.map((a) => a.address),
            page,
          ),
    confirmations: 'blockHeight',
  }),
] as const;
