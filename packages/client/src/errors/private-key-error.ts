import { ExplorerError } from './explorer-error.js';

/**
 * A private key given where a wallet's public key goes (`client.wallet.*`): refused before any request, so it
 * never leaves the process. The message names the kind of key, never the key.
 * @example catch (e) { if (e instanceof ExplorerPrivateKeyError) console.error(e.message) }
 */
export class ExplorerPrivateKeyError extends ExplorerError {
  override name = 'ExplorerPrivateKeyError';
  constructor(what: string) {
    super(
      `key: ${what} is a private key: never send private keys (they spend the coins); send the extended public key (xpub, tpub, or the zpub/vpub Pearl's wallet shows) or a descriptor holding one instead`,
      false,
    );
  }
}
