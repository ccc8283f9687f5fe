import type { CoreNetwork } from '../bitcoin/params.js';
import type { HdVersions, PearlNetwork } from '../pearl/params.js';

/** What deriving addresses needs to know of a chain: its family, address prefixes and BIP32 version bytes. */
export interface WalletChain {
  /** `pearl`: P2TR only, keys in Pearl's version bytes; `bitcoin`: Bitcoin Core and its forks. */
  family: 'pearl' | 'bitcoin';
  /** How messages name it, e.g. `Pearl mainnet`, `Litecoin regtest`. */
  name: string;
  /** A test network (testnet, signet, regtest, simnet): its keys are tpub/vpub…, not xpub/zpub…. */
  testnet: boolean;
  /** Human-readable part of its segwit addresses. */
  bech32Hrp: string;
  /** Base58Check version bytes of P2PKH and P2SH addresses; null where the chain has none (Pearl). */
  base58: { pubkeyHash: number; scriptHash: number } | null;
  /** Its own extended-key version bytes and coin type. */
  hd: HdVersions;
}

/**
 * The wallet parameters of a Pearl network.
 * @example pearlWalletChain(PEARL_NETWORKS.mainnet).hd.public // 0x04b24746 (zpub)
 */
export function pearlWalletChain(network: PearlNetwork): WalletChain {
  return {
    family: 'pearl',
    name: `Pearl ${network.name}`,
    testnet: network.name !== 'mainnet',
    bech32Hrp: network.hrp,
    base58: null,
    hd: network.hd,
  };
}

/**
 * The wallet parameters of a Bitcoin Core or Litecoin Core network.
 * @example coreWalletChain(coreNetworksByChain('regtest', 'litecoin')[0]).bech32Hrp // 'rltc'
 */
export function coreWalletChain(network: CoreNetwork): WalletChain {
  return {
    family: 'bitcoin',
    name: network.name,
    testnet: network.chain !== 'main',
    bech32Hrp: network.bech32Hrp,
    base58: { pubkeyHash: network.base58.pubkeyHash, scriptHash: network.base58.scriptHash },
    hd: network.hd,
  };
}
