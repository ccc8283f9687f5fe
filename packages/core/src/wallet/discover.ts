import {
  deriveAddresses,
  parseWalletKey,
  type WalletChain,
  type WalletKey,
  WalletKeyError,
} from '@explorer/chain';
import { BadRequestError } from '../errors.js';
import type { Identity } from '../route.js';
import type { WalletUsedAddress } from '../schemas/wallet.js';
import type { Store } from '../store.js';

/** The gap limit: unused addresses in a row that end a branch's discovery (default, bounds). */
export const WALLET_GAP = { default: 20, min: 1, max: 100 } as const;

/**
 * How many addresses discovery may derive on one branch: without an API key, and with one. A wallet whose used
 * addresses (plus the gap) reach further is refused (400), never answered late.
 */
export const WALLET_MAX_DERIVED = { anonymous: 2_000, key: 4_000 } as const;

/** The most addresses a caller's request may derive per branch, under the API's configured bounds. */
export const walletMaxDerived = (identity: Identity, bounds: { anonymous: number; key: number }) =>
  identity.type === 'key' ? bounds.key : bounds.anonymous;

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
 * Finds a wallet's used addresses: each branch is derived in windows of `gap` addresses, each window looked up
 * in one statement (the address summaries: used = has any history), until `gap` unused ones follow the last
 * used. A branch that would need more than `max` derived addresses is refused with a 400.
 */
export async function discoverWallet(
  store: Pick<Store, 'getAddresses'>,
  key: WalletKey,
  gap: number,
  max: number,
  refusal: (branch: number) => string,
): Promise<WalletDiscovery> {
  const branches = key.branchCount === 2 ? [0, 1] : [0];
  const settled = await Promise.allSettled(
    branches.map(async (branch) => {
      const used: WalletUsedAddress[] = [];
      let next = 0;
      let from = 0;
      while (from < next + gap) {
        if (from + gap > max) throw new BadRequestError(refusal(branch));
        const window = deriveAddresses(key, { branch, from, count: gap });
        const summaries = await store.getAddresses(window.map((a) => a.address));
        for (const [i, s] of summaries.entries()) {
          if (s.txCount === 0) continue;
          const a = window[i]!;
          used.push({
            branch,
            index: a.index,
            path: a.path,
            address: a.address,
            balance: s.balance,
            received: s.received,
            sent: s.sent,
            txCount: s.txCount,
            utxoCount: s.utxoCount,
          });
          next = a.index + 1;
        }
        from += gap;
      }
      const [first] = deriveAddresses(key, { branch, from: next, count: 1 });
      const placed: Placed = { branch, index: first!.index, path: first!.path, address: first!.address };
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
