/** Seconds pearld aims to put between blocks on every network (difficulty is retargeted every block toward it). */
export const PEARL_TARGET_BLOCK_SECONDS = 194;
/**
 * Virtual bytes a Pearl block may hold: blockchain.MaxBlockVsize, 1,000,000 (MaxBlockPayload 4,000,000 is it times
 * the witness scale factor 4); the certificate is outside it.
 */
export const PEARL_MAX_BLOCK_VSIZE = 1_000_000;

/** The networks pearld knows (its `getblockchaininfo.chain` names). */
export type PearlNetworkName = 'mainnet' | 'testnet' | 'testnet2' | 'regtest' | 'simnet' | 'signet';

/** Heights from which a certificate version is required; null where the fork is off (or not known). */
export interface PearlForks {
  /** Certificate v2, mixture-of-experts jobs allowed. */
  moe: number | null;
  /** Certificate v3 (salted seed). */
  saltedSeed: number | null;
  /** Certificate v4 (FP8 proofs, ancestor headers). */
  fp8: number | null;
  /** Certificate v5 (FP16 proofs); disabled on every network. */
  fp16: number | null;
}

/** A Pearl network's parameters, as pearld's chaincfg sets them. */
export interface PearlNetwork {
  name: PearlNetworkName;
  /** bech32m human-readable part of its addresses. */
  hrp: string;
  /** Default JSON-RPC port of pearld. */
  rpcPort: number;
  /** Genesis block hash, display order. */
  genesisHash: string;
  /** Compact form of the easiest target; difficulty is measured against it. */
  powLimitBits: number;
  forks: PearlForks;
  /** Hashes pearld pins at these heights (display order). */
  checkpoints: readonly { height: number; hash: string }[];
  /** BIP32 extended-key version bytes and BIP44 coin type of its wallet (chaincfg's HDPublicKeyID, HDCoinType). */
  hd: HdVersions;
}

/**
 * A network's BIP32 serialization: the version bytes of its extended public and private keys (big-endian, as
 * their Base58Check text begins) and the coin type its wallets derive under (`m/purpose'/coin'/account'`).
 */
export interface HdVersions {
  public: number;
  private: number;
  coinType: number;
}

// pearld's chaincfg gives Pearl's taproot-only wallets BIP84's version bytes: zpub on mainnet, vpub on the test
// networks; simnet keeps btcd's spub and signet Bitcoin's tpub. Coin type 808276 is ASCII "PRL".
const HD_MAINNET: HdVersions = { public: 0x04b24746, private: 0x04b2430c, coinType: 808_276 };
const HD_TEST: HdVersions = { public: 0x045f1cf6, private: 0x045f18bc, coinType: 1 };
const HD_SIMNET: HdVersions = { public: 0x0420bd3a, private: 0x0420b900, coinType: 1 };
const HD_SIGNET: HdVersions = { public: 0x043587cf, private: 0x04358394, coinType: 1 };

const MAINNET_CHECKPOINTS = [
  [10000, 'a3c196fb1c3f7837bbebd69b98fc451d88d48083af98c318c78486d7f1888490'],
  [20000, '513270b25c6d538f38b26ecdc014f2a809639ec7ebd3c09e4685675311420273'],
  [30000, 'fd61132c2ad6c22fa48a8df483bc6b885c12ceeb3fe0a9fa55eb5beb849fac7b'],
  [40000, '35aac0e2a1e7f2d54924d584cf423b56f0d72d6770ee8365dc1667dbb5b5b320'],
  [50000, '608f32e5390b2ae964c986a53e1be10ba4a640f3ccecf96d6b7838e06cb517ff'],
  [60000, '5a7f0590c3a89099b2d0f1509d2186c73bc3d8e2e4a60e7ce4ec236856900dad'],
  [70000, '281a3469d55226bb9e1b3ccee06eeb923177817b4cdead75131074b171b215c1'],
  [80000, '69d40caca39b3c04ee55589d13cd1c5c546a3eb8712a3367840c5f67ab707cfc'],
  [90000, '0738b30bb353820a4f97331d805d134de4321a5fc5c8b2955988e7291a0c8562'],
  [100000, 'ca8d5f604a9021e538f31472d9a9641c7bc46a6b8d591748e2869429571edbfb'],
  [110000, 'c119b81da722428e61dcda4ec1d6a2a56e6e40acb29592d11081538ab3d50630'],
  [120000, 'a5f57e441de1da43a27b4bee471c7a7bdd8e36664050385bf0a1b760d2a84b7d'],
] as const;

const REGTEST_GENESIS = '78d0ab27df6a51a8e9dbbdefffca1ebbbeb3818cb083ce2c2f43b047247e5832';

/** Every network's parameters (pearld's chaincfg at the newest commit read). */
export const PEARL_NETWORKS: Readonly<Record<PearlNetworkName, PearlNetwork>> = {
  mainnet: {
    name: 'mainnet',
    hrp: 'prl',
    rpcPort: 44107,
    genesisHash: 'a18d3093b7ff618f0cdd073fa3d10374e2e0105fe7ef53ff48b55f41c58dadd7',
    powLimitBits: 0x1b00ffff,
    forks: { moe: 71_935, saltedSeed: 99_000, fp8: null, fp16: null },
    checkpoints: MAINNET_CHECKPOINTS.map(([height, hash]) => ({ height, hash })),
    hd: HD_MAINNET,
  },
  testnet: {
    name: 'testnet',
    hrp: 'tprl',
    rpcPort: 44109,
    genesisHash: '10f0be7be9950f74021d0f7c62989d1e2541c4d46f3c95b74e61679864b43d18',
    powLimitBits: 0x1b00ffff,
    forks: { moe: 1, saltedSeed: 38_648, fp8: null, fp16: null },
    checkpoints: [],
    hd: HD_TEST,
  },
  testnet2: {
    name: 'testnet2',
    hrp: 'tprl',
    rpcPort: 44111,
    genesisHash: 'b0c86d0cd8825f4d72260d2de46f470429eece413811d5d82b5f2e2ea0336f96',
    powLimitBits: 0x1b00ffff,
    forks: { moe: 54_869, saltedSeed: 83_109, fp8: null, fp16: null },
    checkpoints: [],
    hd: HD_TEST,
  },
  regtest: {
    name: 'regtest',
    hrp: 'rprl',
    rpcPort: 18334,
    genesisHash: REGTEST_GENESIS,
    powLimitBits: 0x1e010000,
    forks: { moe: 1, saltedSeed: 1, fp8: 1, fp16: null },
    checkpoints: [],
    hd: HD_TEST,
  },
  simnet: {
    name: 'simnet',
    hrp: 'rprl',
    rpcPort: 18556,
    genesisHash: REGTEST_GENESIS,
    powLimitBits: 0x1e010000,
    forks: { moe: 1, saltedSeed: 1, fp8: 1, fp16: null },
    checkpoints: [],
    hd: HD_SIMNET,
  },
  signet: {
    name: 'signet',
    hrp: 'tprl',
    rpcPort: 38332,
    genesisHash: '2fef231e6125467452c9fb569e2f78c9dd534d04111fcf2cd28d9d0e93b00f34',
    powLimitBits: 0x1d0fffff,
    forks: { moe: null, saltedSeed: null, fp8: null, fp16: null },
    checkpoints: [],
    hd: HD_SIGNET,
  },
};

/** The network named `name` (pearld's chain name), if it is one. */
export function pearlNetworkByName(name: string): PearlNetwork | undefined {
  return Object.hasOwn(PEARL_NETWORKS, name) ? PEARL_NETWORKS[name as PearlNetworkName] : undefined;
}

/** Networks whose genesis block has this hash (regtest and simnet share theirs). */
export function pearlNetworksByGenesis(hash: string): PearlNetwork[] {
  return Object.values(PEARL_NETWORKS).filter((n) => n.genesisHash === hash);
}

/** The certificate version pearld requires at a height: the newest fork that is active there. */
export function requiredCertificateVersion(forks: PearlForks, height: number): number {
  const on = (h: number | null) => h !== null && h > 0 && height >= h;
  if (on(forks.fp16)) return 5;
  if (on(forks.fp8)) return 4;
  if (on(forks.saltedSeed)) return 3;
  if (on(forks.moe)) return 2;
  return 1;
}
