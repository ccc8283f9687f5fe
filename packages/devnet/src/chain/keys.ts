import { createHash } from 'node:crypto';
import { hash160, p2mrScript, sha256, taggedHash } from '@explorer/chain';
import type { Dialect } from './dialect.js';
import type { Rng } from './rng.js';
import { p2pkh, p2sh, p2tr, p2wpkh, p2wsh, pushData } from './script.js';

/**
 * How a wallet key is locked, which decides its scriptPubKey and how inputs spending it look. `p2mr` is
 * Pearl's pay-to-merkle-root (witness v2) over a single `<key> OP_CHECKSIG` leaf.
 */
export type KeyKind = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'p2mr';

/** Everything needed to pay to and spend from one simulated key. */
export interface KeyInfo {
  id: number;
  kind: KeyKind;
  script: Buffer;
  pubkey: Buffer;
}

function scriptFor(kind: KeyKind, pubkey: Buffer): Buffer {
  switch (kind) {
    case 'p2pkh':
      return p2pkh(hash160(pubkey));
    case 'p2wpkh':
      return p2wpkh(hash160(pubkey));
    case 'p2sh-p2wpkh':
      return p2sh(hash160(p2wpkh(hash160(pubkey))));
    case 'p2wsh':
      return p2wsh(sha256(witnessScript(pubkey)));
    case 'p2tr':
      return p2tr(pubkey.subarray(1));
    case 'p2mr':
      return p2mrScript(taggedHash('TapLeaf', Buffer.from([0xc0, 34]), leafScript(pubkey)));
  }
}

function witnessScript(pubkey: Buffer): Buffer {
  return Buffer.concat([Buffer.from([33]), pubkey, Buffer.from([0xac])]);
}

/** The one leaf of a devnet P2MR tree: `<x-only key> OP_CHECKSIG`. */
function leafScript(pubkey: Buffer): Buffer {
  return Buffer.concat([Buffer.from([32]), pubkey.subarray(1), Buffer.from([0xac])]);
}

/** Keys are derived from (seed, id) on demand so a million addresses cost no memory; a few hot ones are cached. */
export class KeyRing {
  private readonly seed: Buffer;
  private readonly cache = new Map<number, KeyInfo>();
  private readonly overrides = new Map<number, KeyKind>();
  private readonly kinds: KeyKind[];
  private nextId = 0;

  constructor(
    seed: string,
    private readonly dialect: Dialect,
  ) {
    this.seed = createHash('sha256').update(`devnet-keys:${seed}`).digest();
    this.kinds = dialect.keyKinds.flatMap(([k, w]) => Array<KeyKind>(w).fill(k));
  }

  /** Allocates a fresh key id. */
  fresh(): number {
    return this.nextId++;
  }

  /** Number of ids handed out so far (reuse picks among these). */
  get count(): number {
    return this.nextId;
  }

  /** Allocates a key of a fixed kind that stays cached (pools, exchanges, services). */
  special(kind: KeyKind): number {
    const id = this.fresh();
    this.overrides.set(id, this.dialect.keyKind(kind));
    this.cache.set(id, this.derive(id));
    return id;
  }

  /** Allocates a key whose script and public key are given (an address of an HD wallet), kept cached. */
  fixed(kind: KeyKind, script: Buffer, pubkey: Buffer): number {
    const id = this.fresh();
    this.overrides.set(id, kind);
    this.cache.set(id, { id, kind, script, pubkey });
    return id;
  }

  /** Key material for an id. */
  info(id: number): KeyInfo {
    return this.cache.get(id) ?? this.derive(id);
  }

  private derive(id: number): KeyInfo {
    const idBuf = Buffer.allocUnsafe(4);
    idBuf.writeUInt32LE(id >>> 0, 0);
    const h = createHash('sha256').update(this.seed).update(idBuf).digest();
    const kind = this.overrides.get(id) ?? (this.kinds[(h[0] as number) % this.kinds.length] as KeyKind);
    const pubkey = Buffer.concat([Buffer.from([2 + ((h[1] as number) & 1)]), h]);
    return { id, kind, script: scriptFor(kind, pubkey), pubkey };
  }
}

/** A strict-DER-looking ECDSA signature with SIGHASH_ALL (content is random; PoW and signatures are not validated). */
export function fakeDerSignature(rng: Rng): Buffer {
  const sig = rng.bytes(71);
  sig[0] = 0x30;
  sig[1] = 68;
  sig[2] = 0x02;
  sig[3] = 32;
  sig[4] = ((sig[4] as number) & 0x7f) | 0x01;
  sig[36] = 0x02;
  sig[37] = 32;
  sig[38] = ((sig[38] as number) & 0x7f) | 0x01;
  sig[70] = 0x01;
  return sig;
}

/** scriptSig and witness for spending an output locked to the key, shaped like real wallets produce. */
export function unlock(key: KeyInfo, rng: Rng): { scriptSig: Buffer; witness: Buffer[] } {
  switch (key.kind) {
    case 'p2pkh':
      return {
        scriptSig: Buffer.concat([pushData(fakeDerSignature(rng)), pushData(key.pubkey)]),
        witness: [],
      };
    case 'p2wpkh':
      return { scriptSig: Buffer.alloc(0), witness: [fakeDerSignature(rng), key.pubkey] };
    case 'p2sh-p2wpkh':
      return {
        scriptSig: pushData(p2wpkh(hash160(key.pubkey))),
        witness: [fakeDerSignature(rng), key.pubkey],
      };
    case 'p2wsh':
      return { scriptSig: Buffer.alloc(0), witness: [fakeDerSignature(rng), witnessScript(key.pubkey)] };
    case 'p2tr':
      return { scriptSig: Buffer.alloc(0), witness: [rng.bytes(64)] };
    case 'p2mr':
      // Signature, the leaf script, and a one-byte control block (leaf version 0xc0, parity 1), as Pearl wallets spend.
      return {
        scriptSig: Buffer.alloc(0),
        witness: [rng.bytes(64), leafScript(key.pubkey), Buffer.from([0xc1])],
      };
  }
}
