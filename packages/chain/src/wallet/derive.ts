import { encodeBase58Check, encodeSegwitAddress } from '../address.js';
import { hash160 } from '../hash.js';
import { WalletKeyError } from './errors.js';
import { type PublicChild, publicChildren } from './public-children.js';
import { taprootOutputKey } from './taproot.js';
import type { WalletChain } from './wallet-chain.js';
import { parseWalletKey, type WalletKey } from './wallet-key.js';

/**
 * Most addresses one `deriveAddresses` call derives. Each address is one public derivation below the branch node
 * (an HMAC and a point multiplication), and a taproot one a second multiplication for the tweak: measured at
 * about 0.2 ms of CPU for P2PKH/P2WPKH and 0.35 ms for taproot on a busy 2-core machine, so the bound keeps one
 * call well under a second; a gap-limit scan asks for a window at a time.
 */
export const MAX_DERIVE_COUNT = 1000;

/** Child numbers past 2^31 - 1 are hardened: not derivable from a public key. */
const UNHARDENED_END = 0x80000000;

/** One derived address. */
export interface DerivedAddress {
  /** 0 receive, 1 change. */
  branch: number;
  /** Child number within the branch. */
  index: number;
  /** Its BIP32 path: from the master key (`m/86'/0'/0'/0/5`) when the origin is known, else from the key (`0/5`). */
  path: string;
  address: string;
  /** Hex of the output script the address pays to. */
  scriptPubKey: string;
  /** Hex of the derived compressed public key (for taproot, the internal key's point before the tweak). */
  publicKey: string;
}

/** Which addresses to derive: `count` consecutive children of a branch from `from`. */
export interface DeriveRange {
  branch: number;
  from: number;
  count: number;
}

function outputOf(key: WalletKey, child: PublicChild): { script: Buffer; address: string } {
  const { chain } = key;
  const { publicKey } = child;
  switch (key.script) {
    case 'tr': {
      const q = taprootOutputKey(publicKey.subarray(1));
      return {
        script: Buffer.concat([Buffer.from([0x51, 0x20]), q]),
        address: encodeSegwitAddress(chain.bech32Hrp, 1, q),
      };
    }
    case 'wpkh': {
      const h = hash160(publicKey);
      return {
        script: Buffer.concat([Buffer.from([0x00, 0x14]), h]),
        address: encodeSegwitAddress(chain.bech32Hrp, 0, h),
      };
    }
    case 'sh-wpkh': {
      const redeem = Buffer.concat([Buffer.from([0x00, 0x14]), hash160(publicKey)]);
      const h = hash160(redeem);
      return {
        script: Buffer.concat([Buffer.from([0xa9, 0x14]), h, Buffer.from([0x87])]),
        address: encodeBase58Check((chain.base58 as { scriptHash: number }).scriptHash, h),
      };
    }
    case 'pkh': {
      const h = hash160(publicKey);
      return {
        script: Buffer.concat([Buffer.from([0x76, 0xa9, 0x14]), h, Buffer.from([0x88, 0xac])]),
        address: encodeBase58Check((chain.base58 as { pubkeyHash: number }).pubkeyHash, h),
      };
    }
  }
}

/**
 * Derives `count` (at most `MAX_DERIVE_COUNT`) consecutive addresses of one branch, each one public derivation
 * below the branch node the key keeps. Pure and deterministic; refuses a range past the bound or into hardened
 * child numbers with a `WalletKeyError` of code `bad-range`.
 * @example deriveAddresses(parseWalletKey(xpub, chain), { branch: 0, from: 0, count: 20 }).map((a) => a.address)
 */
export function deriveAddresses(key: WalletKey, range: DeriveRange): DerivedAddress[] {
  const { branch, from, count } = range;
  if (branch !== 0 && branch !== 1)
    throw new WalletKeyError('bad-range', 'branch must be 0 (receive) or 1 (change)');
  if (!Number.isSafeInteger(from) || from < 0)
    throw new WalletKeyError('bad-range', 'from must be a whole number ≥ 0');
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_DERIVE_COUNT) {
    throw new WalletKeyError(
      'bad-range',
      `count must be a whole number from 0 to ${MAX_DERIVE_COUNT} (addresses one request derives)`,
    );
  }
  if (from + count > UNHARDENED_END) {
    throw new WalletKeyError(
      'bad-range',
      `indexes stop at ${UNHARDENED_END - 1}: past it children are hardened`,
    );
  }
  return publicChildren(key.branchNode(branch), from, count).map((child) => {
    const { script, address } = outputOf(key, child);
    return {
      branch,
      index: child.index,
      path: key.path(branch, child.index),
      address,
      scriptPubKey: script.toString('hex'),
      publicKey: Buffer.from(child.publicKey).toString('hex'),
    };
  });
}

/** A run of addresses to derive, as plain data (what a worker thread is sent): a key, its chain and a range. */
export interface AddressJob extends DeriveRange {
  /** The key as `parseWalletKey` reads it: an extended public key or a descriptor (`WalletKey.descriptor`). */
  key: string;
  chain: WalletChain;
}

/** Keys parsed by `deriveAddressTexts`, with the branch nodes they derived, kept for the next window. */
const parsedKeys = new Map<string, WalletKey>();
const PARSED_KEYS_KEPT = 64;

/**
 * The addresses of a job, as text: the key parsed (and kept for the next window of the same key), then
 * `deriveAddresses`. What a derivation worker runs; refusals are the same `WalletKeyError`s.
 * @example deriveAddressTexts({ key: wallet.descriptor, chain, branch: 0, from: 0, count: 100 })
 */
export function deriveAddressTexts(job: AddressJob): string[] {
  const id = `${JSON.stringify(job.chain)}|${job.key}`;
  let key = parsedKeys.get(id);
  if (key) parsedKeys.delete(id);
  else key = parseWalletKey(job.key, job.chain);
  // Most recently used last: the first entry is the one to drop.
  parsedKeys.set(id, key);
  if (parsedKeys.size > PARSED_KEYS_KEPT) parsedKeys.delete(parsedKeys.keys().next().value!);
  return deriveAddresses(key, job).map((a) => a.address);
}
