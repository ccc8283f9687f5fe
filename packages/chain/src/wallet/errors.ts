/** Why a wallet key, a descriptor or a derivation request was refused. */
export type WalletKeyErrorCode =
  /** An extended private key or a WIF key: refused before anything else, and never echoed back. */
  | 'private-key'
  /** Not an extended public key or a descriptor this module reads (bad Base58Check, bad length, bad syntax). */
  | 'invalid-key'
  /** A key or descriptor of another network (a tpub on mainnet, an xpub on a test network). */
  | 'wrong-network'
  /** A descriptor checksum that does not match, or is malformed. */
  | 'bad-checksum'
  /** A hardened step after the extended public key: it cannot be derived without the private key. */
  | 'hardened-step'
  /** Valid, but outside what this module derives (multisig, script trees, an output type the chain lacks). */
  | 'unsupported'
  /** A derivation request outside its bounds (too many addresses, an index past the unhardened range). */
  | 'bad-range';

/**
 * A wallet key, descriptor or derivation request refused, with a code the HTTP layer maps to a status and a
 * message fit to show the user (it never repeats a private key).
 */
export class WalletKeyError extends Error {
  override readonly name = 'WalletKeyError';

  constructor(
    readonly code: WalletKeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}
