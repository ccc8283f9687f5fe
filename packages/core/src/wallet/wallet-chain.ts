import { PEARL_NETWORKS, pearlNetworkByName, type WalletChain } from '@explorer/chain';
import { BadRequestError } from '../errors.js';
import type { ChainIdentity } from '../schemas/chain.js';

/** BIP32's version bytes as Bitcoin Core writes keys (xpub/xprv, tpub/tprv on every test network). */
const CORE_HD = {
  main: { public: 0x0488b21e, private: 0x0488ade4, coinType: 0 },
  test: { public: 0x043587cf, private: 0x04358394, coinType: 1 },
} as const;

/**
 * The chain a wallet key is read for: the one the indexer recorded — its family, network, address prefixes —
 * with the BIP32 version bytes of that kind of network. A network the tables do not know (the devnet's) is
 * described by what was recorded of it; a Core fork whose address prefixes are not known cannot have its
 * addresses derived, and is refused.
 * @example walletChainOf(await store.indexerState().then((s) => s.chain)).bech32Hrp // 'rltc'
 */
export function walletChainOf(chain: ChainIdentity | null): WalletChain {
  if (!chain)
    throw new BadRequestError(
      'key: nothing is indexed yet, so the chain to derive addresses for is not known',
    );
  const prefixes = chain.addresses;
  if (!prefixes) {
    throw new BadRequestError(
      `key: the address prefixes of the indexed chain (${chain.name ?? chain.network ?? chain.profile}) are not known, so no address can be derived for it`,
    );
  }
  const testnet = chain.profile === 'pearl' ? chain.network !== 'mainnet' : chain.network !== 'main';
  if (chain.profile === 'pearl') {
    const known = chain.network === null ? undefined : pearlNetworkByName(chain.network);
    const hd = (known ?? (testnet ? PEARL_NETWORKS.regtest : PEARL_NETWORKS.mainnet)).hd;
    return {
      family: 'pearl',
      name: chain.name ?? `Pearl ${chain.network ?? 'network'}`,
      testnet,
      bech32Hrp: prefixes.bech32Hrp,
      base58: null,
      hd,
    };
  }
  return {
    family: 'bitcoin',
    name: chain.name ?? chain.network ?? 'the indexed chain',
    testnet,
    bech32Hrp: prefixes.bech32Hrp,
    base58: prefixes.base58
      ? { pubkeyHash: prefixes.base58.pubkeyHash, scriptHash: prefixes.base58.scriptHash }
      : null,
    hd: testnet ? CORE_HD.test : CORE_HD.main,
  };
}
