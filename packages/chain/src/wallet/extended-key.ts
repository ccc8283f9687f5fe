import { HDKey } from '@scure/bip32';
import { decodeBase58Check } from '../address.js';
import { WalletKeyError } from './errors.js';

/** The output scripts a key derives: BIP86 taproot, BIP84 P2WPKH, BIP49 P2SH-P2WPKH, BIP44 P2PKH. */
export type WalletScript = 'tr' | 'wpkh' | 'sh-wpkh' | 'pkh';

/** A known BIP32 / SLIP-132 serialization: its Base58 prefix, whether it is a test network's, what it hints. */
export interface KnownVersion {
  prefix: string;
  version: number;
  private: boolean;
  testnet: boolean;
  /** The script SLIP-132 ties it to; null for xpub/tpub (any script), 'multisig' for the capital-letter ones. */
  hint: WalletScript | 'multisig' | null;
}

const v = (
  prefix: string,
  version: number,
  isPrivate: boolean,
  testnet: boolean,
  hint: KnownVersion['hint'],
): KnownVersion => ({ prefix, version, private: isPrivate, testnet, hint });

/**
 * Every extended-key serialization this module recognises (BIP32, BIP49, SLIP-132; btcd's simnet spub). Pearl
 * reuses zpub and vpub for its taproot keys, so on Pearl their hint does not apply.
 */
export const KNOWN_VERSIONS: readonly KnownVersion[] = [
  v('xpub', 0x0488b21e, false, false, null),
  v('ypub', 0x049d7cb2, false, false, 'sh-wpkh'),
  v('zpub', 0x04b24746, false, false, 'wpkh'),
  v('Ypub', 0x0295b43f, false, false, 'multisig'),
  v('Zpub', 0x02aa7ed3, false, false, 'multisig'),
  v('tpub', 0x043587cf, false, true, null),
  v('upub', 0x044a5262, false, true, 'sh-wpkh'),
  v('vpub', 0x045f1cf6, false, true, 'wpkh'),
  v('Upub', 0x024289ef, false, true, 'multisig'),
  v('Vpub', 0x02575483, false, true, 'multisig'),
  v('spub', 0x0420bd3a, false, true, null),
  v('xprv', 0x0488ade4, true, false, null),
  v('yprv', 0x049d7878, true, false, 'sh-wpkh'),
  v('zprv', 0x04b2430c, true, false, 'wpkh'),
  v('Yprv', 0x0295b005, true, false, 'multisig'),
  v('Zprv', 0x02aa7a99, true, false, 'multisig'),
  v('tprv', 0x04358394, true, true, null),
  v('uprv', 0x044a4e28, true, true, 'sh-wpkh'),
  v('vprv', 0x045f18bc, true, true, 'wpkh'),
  v('Uprv', 0x024285b5, true, true, 'multisig'),
  v('Vprv', 0x02575048, true, true, 'multisig'),
  v('sprv', 0x0420b900, true, true, null),
];

const BY_VERSION = new Map(KNOWN_VERSIONS.map((k) => [k.version, k]));

/** The serialization of these version bytes, if it is a known one. */
export function knownVersion(version: number): KnownVersion | undefined {
  return BY_VERSION.get(version);
}

/** The refusal every private key gets; it names no key, so nothing secret lands in a log. */
export function privateKeyError(what: string): WalletKeyError {
  return new WalletKeyError(
    'private-key',
    `${what} is a private key: never send private keys (they spend the coins); send the extended public key (xpub, tpub, or the zpub/vpub Pearl's wallet shows) or a descriptor holding one instead`,
  );
}

/** An extended key's 78 bytes, or undefined when the text is not Base58Check of that length. */
function extendedKeyBytes(text: string): Uint8Array | undefined {
  const d = decodeBase58Check(text);
  if (d?.payload.length !== 77) return undefined;
  return Uint8Array.from([d.version, ...d.payload]);
}

/**
 * True when `text` is private key material: an extended private key (by its version bytes, or by the 0x00 that
 * starts a private key's field whatever the version) or a WIF key (Base58Check of 33 bytes, or 34 ending in
 * 0x01).
 */
export function isPrivateKeyText(text: string): boolean {
  const ext = extendedKeyBytes(text);
  if (ext) {
    const version = new DataView(ext.buffer).getUint32(0);
    return knownVersion(version)?.private === true || ext[45] === 0;
  }
  const d = decodeBase58Check(text);
  if (!d) return false;
  return d.payload.length === 32 || (d.payload.length === 33 && d.payload[32] === 1);
}

/**
 * Refuses any private key in `text` (a bare key or anywhere in a descriptor) before anything else is read, so
 * that a private key is never parsed further, stored, or repeated in an error.
 */
export function refusePrivateKeys(text: string): void {
  for (const token of text.match(/[1-9A-HJ-NP-Za-km-z]{50,}/g) ?? []) {
    if (isPrivateKeyText(token)) {
      const ext = extendedKeyBytes(token);
      const name = ext ? knownVersion(new DataView(ext.buffer).getUint32(0))?.prefix : undefined;
      throw privateKeyError(name ? `this ${name}` : ext ? 'this extended key' : 'this WIF key');
    }
  }
}

/** A decoded extended public key, with the serialization it came in. */
export interface ExtendedPublicKey {
  node: HDKey;
  version: number;
  known: KnownVersion | undefined;
}

/**
 * Decodes an extended public key of any version bytes (the caller decides which it accepts). Refuses private
 * keys and anything that is not a valid 78-byte serialization of a point on secp256k1.
 */
export function decodeExtendedPublicKey(text: string): ExtendedPublicKey {
  if (isPrivateKeyText(text)) throw privateKeyError('this key');
  const bytes = extendedKeyBytes(text);
  if (!bytes) {
    throw new WalletKeyError(
      'invalid-key',
      'not an extended public key: expected the Base58Check text of a BIP32 key (xpub…, tpub…, zpub…)',
    );
  }
  const version = new DataView(bytes.buffer).getUint32(0);
  try {
    // Decoded under its own version bytes: which versions a chain takes is the caller's decision.
    const node = HDKey.fromExtendedKey(text, { public: version, private: (version ^ 1) >>> 0 });
    if (node.privateKey) throw privateKeyError('this key');
    return { node, version, known: knownVersion(version) };
  } catch (e) {
    if (e instanceof WalletKeyError) throw e;
    throw new WalletKeyError('invalid-key', `not a valid extended public key: ${(e as Error).message}`);
  }
}

/** Serializes a node's public key under other version bytes (ypub/zpub → xpub for descriptors). */
export function encodeExtendedPublicKey(node: HDKey, version: number): string {
  const copy = new HDKey({
    versions: { public: version, private: (version ^ 1) >>> 0 },
    depth: node.depth,
    index: node.index,
    parentFingerprint: node.parentFingerprint,
    chainCode: node.chainCode as Uint8Array,
    publicKey: node.publicKey as Uint8Array,
  });
  return copy.publicExtendedKey;
}

/** Hex of a key's BIP32 fingerprint (the first 4 bytes of HASH160 of its public key). */
export function fingerprintHex(node: HDKey): string {
  return node.fingerprint.toString(16).padStart(8, '0');
}
