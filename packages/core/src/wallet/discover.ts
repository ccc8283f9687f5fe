import {
  MAX_DERIVE_COUNT,
  parseWalletKey,
  type WalletChain,
  type WalletKey,
  WalletKeyError,
} from '@explorer/chain';
import { LRUCache } from 'lru-cache';
import { BadRequestError } from '../errors.js';
import type { Identity } from '../route.js';
import type { WalletUsedAddress } from '../schemas/wallet.js';
import type { Store } from '../store.js';
import type { WalletDeriver } from './deriver.js';

export { WALLET_GAP, WALLET_MAX_DERIVED } from './limits.js';

/** The most addresses a caller's request may derive per branch, under the API's configured bounds. */
export const walletMaxDerived = (identity: Identity, bounds: { anonymous: number; key: number }) =>
  identity.type === 'key' ? bounds.key : bounds.anonymous;

/** Most derived addresses kept for later requests, all keys together (about 100 bytes each). */
export const DERIVED_ADDRESSES_KEPT = 200_000;

/**
 * Addresses derived so far of each key's branch, from index 0: derivation (about 0.2–0.35 ms an address) is the
 * costly part of discovery, and it depends on the key alone (its `derivationId`) — not on the gap, the origin,
 * the caller or the indexed tip — so a request for a key derives only what no earlier one did, however its gap or
 * origin is written. Deterministic data, so one bounded cache serves every API of the process.
 */
const derivedCache = new LRUCache<string, string[]>({
  maxSize: DERIVED_ADDRESSES_KEPT,
  sizeCalculation: (list) => Math.max(1, list.length),
});

/** Derivations under way, by key and branch: a request that needs the same addresses waits for them. */
const deriving = new Map<string, Promise<void>>();

/**
 * The addresses `from` to `from + count - 1` of a branch, derived (by `derive`, off the request thread where the
 * host gives such a deriver) only where no earlier request did.
 */
async function addressesOf(
  key: WalletKey,
  branch: number,
  from: number,
  count: number,
  derive: WalletDeriver,
): Promise<string[]> {
  const id = `${key.derivationId}|${branch}`;
  for (;;) {
    const list = derivedCache.get(id) ?? [];
    if (list.length >= from + count) return list.slice(from, from + count);
    const pending = deriving.get(id);
    if (pending) {
      // Its failure is its own requests' to report; this one derives for itself after it.
      await pending.catch(() => {});
      continue;
    }
    const work = (async () => {
      const grown = [...list];
      while (grown.length < from + count) {
        const n = Math.min(MAX_DERIVE_COUNT, from + count - grown.length);
        const job = { key: key.descriptor, chain: key.chain, branch, from: grown.length, count: n };
        for (const address of await derive(job)) grown.push(address);
      }
      derivedCache.set(id, grown);
    })();
    deriving.set(id, work);
    try {
      await work;
    } finally {
      deriving.delete(id);
    }
  }
}

/** Addresses looked up in one statement during discovery, at the least (a window is never smaller than the gap). */
export const LOOKUP_WINDOW = 100;

/** A derived address with its place in the wallet. */
interface Placed {
  branch: number;
  index: number;
  path: string;
  address: string;
}

/** What discovery found of a wallet at one indexed tip. */
export interface WalletDiscovery {
  key: WalletKey;
  gap: number;
  /** Used addresses (any history) with their totals, receive then change, by index. */
  used: WalletUsedAddress[];
  /** The address after the last used one of each branch (null for a branch the key lacks). */
  firstUnused: [Placed, Placed | null];
  /** Addresses derived, both branches. */
  derived: number;
}

/**
 * Reads a wallet key for a chain; the library's refusals (a private key, a hardened step, a bad checksum, the
 * wrong network, an unsupported or invalid key) become 400s with its message, which never repeats the key.
 */
export function readWalletKey(text: string, chain: WalletChain): WalletKey {
  try {
    return parseWalletKey(text, chain);
  } catch (err) {
    if (err instanceof WalletKeyError) throw new BadRequestError(`key: ${err.message}`);
    throw err;
  }
}

/**
 * Finds a wallet's used addresses: each branch is examined from index 0 until `gap` unused addresses follow the
 * last used one (BIP44's gap limit: an address past a longer hole is not found), the addresses looked up in
 * windows of at least LOOKUP_WINDOW per statement (the address summaries: used = has any history). A branch that
 * would need more than `max` addresses examined is refused with a 400.
 */
export async function discoverWallet(
  store: Pick<Store, 'getAddresses'>,
  key: WalletKey,
  gap: number,
  max: number,
  refusal: (branch: number) => string,
  derive: WalletDeriver,
): Promise<WalletDiscovery> {
  const branches = key.branchCount === 2 ? [0, 1] : [0];
  const settled = await Promise.allSettled(
    branches.map(async (branch) => {
      const used: WalletUsedAddress[] = [];
      // Index after the last used address, and the next index to examine: the branch ends once `gap` unused
      // addresses follow the last used one (BIP44's gap limit, exactly, whatever the window).
      let next = 0;
      let from = 0;
      while (from < next + gap) {
        if (next + gap > max) throw new BadRequestError(refusal(branch));
        // At least LOOKUP_WINDOW addresses per statement, so a small gap does not mean a statement per address.
        const start = from;
        const window = await addressesOf(
          key,
          branch,
          start,
          Math.min(Math.max(gap, LOOKUP_WINDOW), max - start),
          derive,
        );
        const summaries = await store.getAddresses(window);
        for (const [i, s] of summaries.entries()) {
          const index = start + i;
          if (index >= next + gap) break;
          from = index + 1;
          if (s.txCount === 0) continue;
          used.push({
            branch,
            index,
            path: key.path(branch, index),
            address: window[i]!,
            balance: s.balance,
            received: s.received,
            sent: s.sent,
            txCount: s.txCount,
            utxoCount: s.utxoCount,
          });
          next = index + 1;
        }
      }
      const [address] = await addressesOf(key, branch, next, 1, derive);
      const placed: Placed = { branch, index: next, path: key.path(branch, next), address: address! };
      return { used, first: placed, derived: from };
    }),
  );
  // Both branches are scanned at once; a refusal names the first branch refused, whichever finished first.
  const results = settled.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
  return {
    key,
    gap,
    used: results.flatMap((r) => r.used),
    firstUnused: [results[0]!.first, results[1]?.first ?? null],
    derived: results.reduce((n, r) => n + r.derived, 0),
  };
}
