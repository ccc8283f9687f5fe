import type { HdVersions } from '../pearl/params.js';

/** The coins of the bitcoin profile whose networks are known: Bitcoin Core's and Litecoin Core's. */
export type CoreCoin = 'bitcoin' | 'litecoin';

/** A network of Bitcoin Core or one of its forks, as its chainparams (and chainparamsbase) set it. */
export interface CoreNetwork {
  coin: CoreCoin;
  /** The node's name for it: `getblockchaininfo.chain`, `-chain=` (main, test, testnet4, signet, regtest). */
  chain: string;
  /** How people call it, e.g. `Litecoin regtest`. */
  name: string;
  /** Genesis block hash, display order: what tells one network from another. */
  genesisHash: string;
  /** The coin's ticker on this network (test networks' coins carry a `t`), and its integer unit. */
  units: { symbol: string; baseUnit: string };
  /** Base58Check version bytes of legacy addresses. */
  base58: {
    /** P2PKH. */
    pubkeyHash: number;
    /** P2SH, as the node writes it. */
    scriptHash: number;
    /** Litecoin's first P2SH version byte (Bitcoin's), still read by its nodes but no longer written; else null. */
    legacyScriptHash: number | null;
  };
  /** Human-readable part of its segwit addresses (bech32, bech32m). */
  bech32Hrp: string;
  /** Human-readable part of its MWEB addresses (Litecoin); null where there is no MWEB. */
  mwebHrp: string | null;
  /** Default JSON-RPC port of the node. */
  rpcPort: number;
  /** The folder of the node's data dir that holds this network ('' for mainnet): where its `.cookie` is. */
  dataSubdir: string;
  /** Seconds the network aims to put between blocks. */
  blockSeconds: number;
  /** BIP32 extended-key version bytes (xpub/xprv, tpub/tprv) and the BIP44 coin type of its wallets. */
  hd: HdVersions;
}

const BITCOIN_TEST_BASE58 = { pubkeyHash: 111, scriptHash: 196, legacyScriptHash: null };
const LITECOIN_TEST_BASE58 = { pubkeyHash: 111, scriptHash: 58, legacyScriptHash: 196 };
// Bitcoin Core's and Litecoin Core's chainparams (EXT_PUBLIC_KEY, EXT_SECRET_KEY): xpub/xprv on mainnet,
// tpub/tprv on every test network; SLIP-44 coin types 0 (Bitcoin), 2 (Litecoin), 1 (any test network).
const XPUB = { public: 0x0488b21e, private: 0x0488ade4 };
const TPUB = { public: 0x043587cf, private: 0x04358394 };
const BTC = { symbol: 'BTC', baseUnit: 'satoshi' };
const TBTC = { symbol: 'tBTC', baseUnit: 'satoshi' };
const LTC = { symbol: 'LTC', baseUnit: 'litoshi' };
const TLTC = { symbol: 'tLTC', baseUnit: 'litoshi' };

/**
 * Every known network of the bitcoin profile (Bitcoin Core 28's and Litecoin Core 0.21's chainparams). A signet
 * other than the default one has a genesis block of its own and is not among them.
 */
export const CORE_NETWORKS: readonly CoreNetwork[] = [
  {
    coin: 'bitcoin',
    chain: 'main',
    name: 'Bitcoin mainnet',
    genesisHash: '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f',
    units: BTC,
    base58: { pubkeyHash: 0, scriptHash: 5, legacyScriptHash: null },
    bech32Hrp: 'bc',
    mwebHrp: null,
    rpcPort: 8332,
    dataSubdir: '',
    blockSeconds: 600,
    hd: { ...XPUB, coinType: 0 },
  },
  {
    coin: 'bitcoin',
    chain: 'test',
    name: 'Bitcoin testnet',
    genesisHash: '000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943',
    units: TBTC,
    base58: BITCOIN_TEST_BASE58,
    bech32Hrp: 'tb',
    mwebHrp: null,
    rpcPort: 18332,
    dataSubdir: 'testnet3',
    blockSeconds: 600,
    hd: { ...TPUB, coinType: 1 },
  },
  {
    coin: 'bitcoin',
    chain: 'testnet4',
    name: 'Bitcoin testnet4',
    genesisHash: '00000000da84f2bafbbc53dee25a72ae507ff4914b867c565be350b0da8bf043',
    units: TBTC,
    base58: BITCOIN_TEST_BASE58,
    bech32Hrp: 'tb',
    mwebHrp: null,
    rpcPort: 48332,
    dataSubdir: 'testnet4',
    blockSeconds: 600,
    hd: { ...TPUB, coinType: 1 },
  },
  {
    coin: 'bitcoin',
    chain: 'signet',
    name: 'Bitcoin signet',
    genesisHash: '00000008819873e925422c1ff0f99f7cc9bbb232af63a077a480a3633bee1ef6',
    units: TBTC,
    base58: BITCOIN_TEST_BASE58,
    bech32Hrp: 'tb',
    mwebHrp: null,
    rpcPort: 38332,
    dataSubdir: 'signet',
    blockSeconds: 600,
    hd: { ...TPUB, coinType: 1 },
  },
  {
    coin: 'bitcoin',
    chain: 'regtest',
    name: 'Bitcoin regtest',
    genesisHash: '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206',
    units: TBTC,
    base58: BITCOIN_TEST_BASE58,
    bech32Hrp: 'bcrt',
    mwebHrp: null,
    rpcPort: 18443,
    dataSubdir: 'regtest',
    blockSeconds: 600,
    hd: { ...TPUB, coinType: 1 },
  },
  {
    coin: 'litecoin',
    chain: 'main',
    name: 'Litecoin mainnet',
    genesisHash: '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2',
    units: LTC,
    base58: { pubkeyHash: 48, scriptHash: 50, legacyScriptHash: 5 },
    bech32Hrp: 'ltc',
    mwebHrp: 'ltcmweb',
    rpcPort: 9332,
    dataSubdir: '',
    blockSeconds: 150,
    hd: { ...XPUB, coinType: 2 },
  },
  {
    coin: 'litecoin',
    chain: 'test',
    name: 'Litecoin testnet',
    genesisHash: '4966625a4b2851d9fdee139e56211a0d88575f59ed816ff5e6a63deb4e3e29a0',
    units: TLTC,
    base58: LITECOIN_TEST_BASE58,
    bech32Hrp: 'tltc',
    mwebHrp: 'tmweb',
    rpcPort: 19332,
    // Litecoin's testnet is its fourth: the data dir says so, the chain name does not.
    dataSubdir: 'testnet4',
    blockSeconds: 150,
    hd: { ...TPUB, coinType: 1 },
  },
  {
    coin: 'litecoin',
    chain: 'regtest',
    name: 'Litecoin regtest',
    genesisHash: '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9',
    units: TLTC,
    base58: LITECOIN_TEST_BASE58,
    bech32Hrp: 'rltc',
    mwebHrp: 'tmweb',
    rpcPort: 19443,
    dataSubdir: 'regtest',
    blockSeconds: 150,
    hd: { ...TPUB, coinType: 1 },
  },
];

/** Names operators also use for Core's chains. */
const CHAIN_ALIASES: Readonly<Record<string, string>> = { mainnet: 'main', testnet: 'test' };

/**
 * Core's name of a chain, also from `mainnet` and `testnet`; other names as given.
 * @example coreChainName('mainnet') // 'main'
 */
export function coreChainName(name: string): string {
  return CHAIN_ALIASES[name] ?? name;
}

/**
 * The known network whose genesis block has this hash (display order).
 * @example coreNetworkByGenesis('530827f3…16f9')?.name // 'Litecoin regtest'
 */
export function coreNetworkByGenesis(hash: string): CoreNetwork | undefined {
  return CORE_NETWORKS.find((n) => n.genesisHash === hash);
}

/**
 * The known networks a node names by this chain name (`mainnet` and `testnet` read as `main` and `test`), of
 * one coin or of all.
 * @example coreNetworksByChain('test').map((n) => n.dataSubdir) // ['testnet3', 'testnet4']
 */
export function coreNetworksByChain(chain: string, coin?: CoreCoin): CoreNetwork[] {
  const name = coreChainName(chain);
  return CORE_NETWORKS.filter((n) => n.chain === name && (coin === undefined || n.coin === coin));
}
