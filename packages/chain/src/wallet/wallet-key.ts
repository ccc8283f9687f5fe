import type { HDKey } from '@scure/bip32';
import { type KeyOrigin, parseDescriptor } from './descriptor.js';
import { descriptorChecksum } from './descriptor-checksum.js';
import { WalletKeyError } from './errors.js';
import {
  decodeExtendedPublicKey,
  encodeExtendedPublicKey,
  type KnownVersion,
  knownVersion,
  refusePrivateKeys,
  type WalletScript,
} from './extended-key.js';
import type { WalletChain } from './wallet-chain.js';

const XPUB = 0x0488b21e;
const TPUB = 0x043587cf;
const HARDENED = 0x80000000;

/**
 * The extended public keys a chain takes, each with the script a bare key of it derives. Pearl: its own version
 * bytes (zpub on mainnet, vpub on the test networks) and the plain xpub/tpub, all taproot (BIP86, as Pearl's
 * wallet derives). Core chains: SLIP-132's xpub/tpub → P2PKH (BIP44), ypub/upub → P2SH-P2WPKH (BIP49),
 * zpub/vpub → P2WPKH (BIP84).
 */
export function acceptedVersions(chain: WalletChain): Map<number, WalletScript> {
  if (chain.family === 'pearl') {
    return new Map<number, WalletScript>([
      [chain.hd.public, 'tr'],
      [chain.testnet ? TPUB : XPUB, 'tr'],
    ]);
  }
  const m = new Map<number, WalletScript>(
    chain.testnet
      ? [
          [TPUB, 'pkh'],
          [0x044a5262, 'sh-wpkh'],
          [0x045f1cf6, 'wpkh'],
        ]
      : [
          [XPUB, 'pkh'],
          [0x049d7cb2, 'sh-wpkh'],
          [0x04b24746, 'wpkh'],
        ],
  );
  if (!m.has(chain.hd.public)) m.set(chain.hd.public, 'pkh');
  return m;
}

function prefixOf(version: number): string {
  return knownVersion(version)?.prefix ?? `0x${version.toString(16).padStart(8, '0')}`;
}

function refuseVersion(chain: WalletChain, version: number, known: KnownVersion | undefined): never {
  const accepted = [...acceptedVersions(chain).keys()].map(prefixOf).join(', ');
  if (known?.hint === 'multisig') {
    throw new WalletKeyError(
      'unsupported',
      `a ${known.prefix} is a multisig key: only single-key wallets are read`,
    );
  }
  if (known && known.testnet !== chain.testnet) {
    throw new WalletKeyError(
      'wrong-network',
      `a ${known.prefix} is a ${known.testnet ? 'test network' : 'mainnet'} key, and this chain is ${chain.name}: it takes ${accepted}`,
    );
  }
  throw new WalletKeyError(
    known ? 'wrong-network' : 'invalid-key',
    `${known ? `a ${known.prefix}` : `an extended key of version bytes ${prefixOf(version)}`} is not a key of ${chain.name}: it takes ${accepted}`,
  );
}

const SCRIPT_NAMES: Record<WalletScript, string> = {
  tr: 'taproot (P2TR)',
  wpkh: 'P2WPKH',
  'sh-wpkh': 'P2SH-P2WPKH',
  pkh: 'P2PKH',
};

function wrap(script: WalletScript, inner: string): string {
  return script === 'sh-wpkh' ? `sh(wpkh(${inner}))` : `${script}(${inner})`;
}

/** A BIP32 path as text, hardened steps with `'`. */
function pathText(steps: readonly number[]): string {
  return steps.map((s) => (s >= HARDENED ? `${s - HARDENED}'` : String(s))).join('/');
}

/** Most unhardened steps between a key and its addresses' index (a wallet has one: the branch). */
export const MAX_BRANCH_STEPS = 8;

/** What `parseWalletKey` makes of an extended public key or a descriptor: a key ready to derive from. */
export class WalletKey {
  /** The chain whose addresses it derives. */
  readonly chain: WalletChain;
  /** The output script of every address. */
  readonly script: WalletScript;
  /** The key's origin when a descriptor gave one; else null, and paths are relative to the key. */
  readonly origin: KeyOrigin | null;
  /** The extended public key in the standard serialization of the chain (xpub on mainnet, tpub on test networks). */
  readonly xpub: string;
  /** The equivalent descriptor, with its checksum: `tr(xpub…/<0;1>/*)#…` for a bare key. */
  readonly descriptor: string;
  /** Number of branches: 2 (receive 0, change 1) for a bare key or a `<0;1>` descriptor, 1 for `…/0/*`. */
  readonly branchCount: 1 | 2;
  /**
   * What the addresses depend on, and nothing else: the chain's address encoding, the script, the key and the
   * steps to each branch — not the origin (which only names paths) nor the checksum. Keys with one id derive the
   * same addresses, so what was derived for one can serve the other.
   */
  readonly derivationId: string;
  readonly #node: HDKey;
  readonly #branches: number[][];
  readonly #nodes: (HDKey | undefined)[] = [];

  constructor(
    chain: WalletChain,
    script: WalletScript,
    node: HDKey,
    origin: KeyOrigin | null,
    branches: number[][],
  ) {
    // BIP32 serializes a depth in one byte: a key and its steps past 255 cannot be derived (nor written), and no
    // wallet puts more than a few steps between its key and its addresses.
    const below = Math.max(...branches.map((b) => b.length));
    if (below > MAX_BRANCH_STEPS || node.depth + below + 1 > 255) {
      throw new WalletKeyError(
        'unsupported',
        `a key at depth ${node.depth} with ${below} steps before its addresses is deeper than a wallet goes: at most ${MAX_BRANCH_STEPS} steps, and 255 levels in all`,
      );
    }
    this.chain = chain;
    this.script = script;
    this.origin = origin;
    this.#node = node;
    this.#branches = branches;
    this.branchCount = branches.length === 2 ? 2 : 1;
    this.xpub = encodeExtendedPublicKey(node, chain.testnet ? TPUB : XPUB);
    const steps = (branches[0] as number[]).map((s, i) => {
      const change = branches[1]?.[i];
      return change === undefined || change === s ? String(s) : `<${s};${change}>`;
    });
    const originText = origin
      ? `[${[origin.fingerprint, ...origin.path.map((s) => pathText([s]))].join('/')}]`
      : '';
    const body = wrap(script, `${originText}${[this.xpub, ...steps, '*'].join('/')}`);
    this.descriptor = `${body}#${descriptorChecksum(body)}`;
    const encoding = `${chain.bech32Hrp}:${chain.base58 ? `${chain.base58.pubkeyHash}.${chain.base58.scriptHash}` : '-'}`;
    this.derivationId = `${encoding}:${wrap(script, [this.xpub, ...steps, '*'].join('/'))}`;
  }

  /** The node of a branch (0 receive, 1 change), derived once and kept: every address of it is one step below. */
  branchNode(branch: number): HDKey {
    const steps = this.#branches[branch];
    if (!steps) {
      throw new WalletKeyError(
        'bad-range',
        `this descriptor has no branch ${branch}: it describes one run of addresses; give a multipath descriptor (…/<0;1>/*) or the bare extended key for receive and change`,
      );
    }
    let node = this.#nodes[branch];
    if (!node) {
      node = steps.reduce((n, s) => n.deriveChild(s), this.#node);
      this.#nodes[branch] = node;
    }
    return node;
  }

  /** The path of the address at `index` of a branch: from the master key (`m/86'/0'/0'/0/5`) when the origin is known, else from the key (`0/5`). */
  path(branch: number, index: number): string {
    const steps = [...(this.#branches[branch] ?? []), index];
    return this.origin ? `m/${pathText([...this.origin.path, ...steps])}` : pathText(steps);
  }
}

function looksLikeDescriptor(text: string): boolean {
  return /[()[\]#/]/.test(text);
}

/**
 * Reads an extended public key (xpub, tpub, ypub, zpub, upub, vpub, or Pearl's own zpub/vpub) or a single-key
 * output descriptor for a chain, refusing private keys first. A bare key derives receive (0) and change (1)
 * branches below it, with the script its version bytes name (Pearl: always taproot, BIP86); a descriptor says
 * its own script and branches.
 * @example parseWalletKey('zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs', coreWalletChain(bitcoinMainnet)).script // 'wpkh'
 */
export function parseWalletKey(text: string, chain: WalletChain): WalletKey {
  const input = text.trim();
  refusePrivateKeys(input);
  const accepted = acceptedVersions(chain);
  if (!looksLikeDescriptor(input)) {
    const { node, version, known } = decodeExtendedPublicKey(input);
    const script = accepted.get(version);
    if (!script) refuseVersion(chain, version, known);
    checkScript(chain, script);
    return new WalletKey(chain, script, node, null, [[0], [1]]);
  }
  const d = parseDescriptor(input);
  const { node, version, known } = decodeExtendedPublicKey(d.key);
  const bareScript = accepted.get(version);
  if (!bareScript) refuseVersion(chain, version, known);
  // On a Core chain a ypub or zpub names its script; a descriptor saying another is a mistake to point out.
  if (chain.family === 'bitcoin' && known?.hint && known.hint !== 'multisig' && known.hint !== d.script) {
    throw new WalletKeyError(
      'invalid-key',
      `a ${known.prefix} is a ${SCRIPT_NAMES[known.hint]} key, but the descriptor derives ${SCRIPT_NAMES[d.script]}: write the key as an xpub/tpub, or use ${wrap(known.hint, 'KEY')}`,
    );
  }
  checkScript(chain, d.script);
  return new WalletKey(chain, d.script, node, d.origin, d.branches);
}

function checkScript(chain: WalletChain, script: WalletScript): void {
  if (chain.family === 'pearl' && script !== 'tr') {
    throw new WalletKeyError(
      'unsupported',
      `${chain.name} has no ${SCRIPT_NAMES[script]} outputs: Pearl's consensus takes only taproot (P2TR) and P2MR; use tr(KEY)`,
    );
  }
  if ((script === 'pkh' || script === 'sh-wpkh') && !chain.base58) {
    throw new WalletKeyError(
      'unsupported',
      `${chain.name} has no Base58 addresses for ${SCRIPT_NAMES[script]}`,
    );
  }
}
