import {
  PEARL_NETWORKS,
  p2mrScript,
  p2trScript,
  pearlAddressScript,
  pearlScriptAddress,
  pearlScriptType,
  pearlSubsidy,
  pearlWalletChain,
  type WalletChain,
} from '@explorer/chain';
import type { KeyKind } from './keys.js';
import { addressToScript, classify, NETWORK, p2pkh, p2wsh, scriptAddress } from './script.js';

/** Which node the devnet imitates. */
export type DialectName = 'pearl' | 'bitcoin';

/** What differs between the chains the devnet can be: scripts, addresses, key kinds, emission. */
export interface Dialect {
  readonly name: DialectName;
  /** The address an output script pays to, or undefined. */
  address(script: Uint8Array): string | undefined;
  /** The output script of an address of this chain, or undefined. */
  addressScript(address: string): Buffer | undefined;
  /** The script type as the node names it. */
  scriptType(script: Uint8Array): string;
  /** Key kinds the simulated users hold, with their weights. */
  readonly keyKinds: readonly (readonly [KeyKind, number])[];
  /** The kind a pool or service key asked for as `kind` has on this chain. */
  keyKind(kind: KeyKind): KeyKind;
  /** The labelled burn outputs. */
  burnScripts(): Buffer[];
  /** Whether consensus lets a transaction create nonstandard outputs. */
  readonly nonstandardOutputs: boolean;
  /** Block subsidy in base units. */
  subsidy(height: number): number;
  /** What deriving an HD wallet's addresses needs of this chain (prefixes, extended-key versions). */
  readonly walletChain: WalletChain;
}

/** The HRP of the devnet's Pearl addresses: pearld's regtest one. */
export const PEARL_DEVNET_HRP = PEARL_NETWORKS.regtest.hrp;

/** Pearl: P2TR and P2MR outputs on rprl addresses (the only spendable outputs consensus accepts), Pearl's emission. */
export const pearlDialect: Dialect = {
  name: 'pearl',
  address: (s) => pearlScriptAddress(s, PEARL_DEVNET_HRP) ?? undefined,
  addressScript: (a) => pearlAddressScript(a, PEARL_DEVNET_HRP),
  scriptType: pearlScriptType,
  keyKinds: [
    ['p2tr', 70],
    ['p2mr', 30],
  ],
  keyKind: (k) => (k === 'p2wsh' || k === 'p2sh-p2wpkh' || k === 'p2mr' ? 'p2mr' : 'p2tr'),
  burnScripts: () => [p2trScript(Buffer.alloc(32)), p2mrScript(Buffer.alloc(32))],
  nonstandardOutputs: false,
  subsidy: (h) => Number(pearlSubsidy(h)),
  walletChain: pearlWalletChain(PEARL_NETWORKS.regtest),
};

/** The Bitcoin dialect's wallet parameters: its own prefixes, a test network's tpub keys. */
const BITCOIN_DEVNET_WALLET: WalletChain = {
  family: 'bitcoin',
  name: 'the devnet (Bitcoin dialect)',
  testnet: true,
  bech32Hrp: NETWORK.hrp,
  base58: { pubkeyHash: NETWORK.p2pkhVersion, scriptHash: NETWORK.p2shVersion },
  hd: { public: 0x043587cf, private: 0x04358394, coinType: 1 },
};

/** Bitcoin Core: legacy, segwit v0 and taproot outputs, 50 coins halving every `halvingInterval` blocks. */
export function bitcoinDialect(halvingInterval: number): Dialect {
  return {
    name: 'bitcoin',
    address: (s) => scriptAddress(s),
    addressScript: addressToScript,
    scriptType: classify,
    keyKinds: [
      ['p2wpkh', 45],
      ['p2tr', 20],
      ['p2pkh', 15],
      ['p2sh-p2wpkh', 12],
      ['p2wsh', 8],
    ],
    keyKind: (k) => (k === 'p2mr' ? 'p2tr' : k),
    burnScripts: () => [p2pkh(Buffer.alloc(20)), p2wsh(Buffer.alloc(32))],
    nonstandardOutputs: true,
    subsidy: (h) => {
      const halvings = Math.floor(h / halvingInterval);
      return halvings >= 64 ? 0 : Math.floor(5_000_000_000 / 2 ** halvings);
    },
    walletChain: BITCOIN_DEVNET_WALLET,
  };
}
