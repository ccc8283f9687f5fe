import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  decodeBase58Check,
  decodeSegwitAddress,
  encodeBase58Check,
  encodeSegwitAddress,
} from '../address.js';
import { ByteWriter } from '../bytes/writer.js';
import { fromDisplayHex, sha256d, toDisplayHex } from '../hash.js';
import {
  CORE_NETWORKS,
  type CoreNetwork,
  coreChainName,
  coreNetworkByGenesis,
  coreNetworksByChain,
} from './params.js';

const byName = (name: string): CoreNetwork => {
  const n = CORE_NETWORKS.find((x) => x.name === name);
  if (!n) throw new Error(`no network ${name}`);
  return n;
};

// Each genesis block's header fields as the coin's chainparams build it (version 1, no parent): hashing them
// must give the hash the network is known by.
const BITCOIN_ROOT = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b';
const LITECOIN_ROOT = '97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9';
const GENESIS_HEADERS: Record<string, { root: string; time: number; bits: number; nonce: number }> = {
  'Bitcoin mainnet': { root: BITCOIN_ROOT, time: 1231006505, bits: 0x1d00ffff, nonce: 2083236893 },
  'Bitcoin testnet': { root: BITCOIN_ROOT, time: 1296688602, bits: 0x1d00ffff, nonce: 414098458 },
  'Bitcoin testnet4': {
    root: '7aa0a7ae1e223414cb807e40cd57e667b718e42aaf9306db9102fe28912b7b4e',
    time: 1714777860,
    bits: 0x1d00ffff,
    nonce: 393743547,
  },
  'Bitcoin signet': { root: BITCOIN_ROOT, time: 1598918400, bits: 0x1e0377ae, nonce: 52613770 },
  'Bitcoin regtest': { root: BITCOIN_ROOT, time: 1296688602, bits: 0x207fffff, nonce: 2 },
  'Litecoin mainnet': { root: LITECOIN_ROOT, time: 1317972665, bits: 0x1e0ffff0, nonce: 2084524493 },
  'Litecoin testnet': { root: LITECOIN_ROOT, time: 1486949366, bits: 0x1e0ffff0, nonce: 293345 },
  'Litecoin regtest': { root: LITECOIN_ROOT, time: 1296688602, bits: 0x207fffff, nonce: 0 },
};

function genesisHash(h: { root: string; time: number; bits: number; nonce: number }): string {
  const header = new ByteWriter(80)
    .u32(1)
    .raw(new Uint8Array(32))
    .raw(fromDisplayHex(h.root))
    .u32(h.time)
    .u32(h.bits)
    .u32(h.nonce)
    .finish();
  return toDisplayHex(sha256d(header));
}

// hash160 of the secp256k1 generator's compressed key, and of the P2WPKH script paying it (its P2SH-P2WPKH
// payload): the programs behind the addresses below.
const KEY_HASH = '751e76e8199196d454941c45d1b3a323f1433bd6';
const NESTED_HASH = 'bcfeb728b584253d5f3f70bcb780e9ef218a68f4';

/**
 * Addresses of those programs on each network, as published: BIP173's and Bitcoin Core's own for Bitcoin,
 * and for Litecoin what litecoind 0.21.2.1 answers `deriveaddresses` for pkh(G), sh(wpkh(G)) and wpkh(G) on
 * each chain, plus an MWEB address its wallet gave (`getnewaddress "" mweb`).
 */
const KNOWN: Record<string, { p2pkh: string; p2sh: string; p2wpkh: string; mweb?: string }> = {
  'Bitcoin mainnet': {
    p2pkh: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
    p2sh: '3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN',
    p2wpkh: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  },
  'Bitcoin testnet': {
    p2pkh: 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r',
    p2sh: '2NAUYAHhujozruyzpsFRP63mbrdaU5wnEpN',
    p2wpkh: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  },
  'Bitcoin regtest': {
    p2pkh: 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r',
    p2sh: '2NAUYAHhujozruyzpsFRP63mbrdaU5wnEpN',
    p2wpkh: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
  },
  'Litecoin mainnet': {
    p2pkh: 'LVuDpNCSSj6pQ7t9Pv6d6sUkLKoqDEVUnJ',
    p2sh: 'MR8UQSBr5ULwWheBHznrHk2jxyxkHQu8vB',
    p2wpkh: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9',
    mweb: 'ltcmweb1qqdk3avgphehy7mkxlqfn7mxnvd5gw7ckqtw9xg0z7sgsn0ded3z9qqcym9n2tpgrsvw07nkd6ysfl9sugep4kqvjmxcwf60cfj63m28svgvlw9zl',
  },
  'Litecoin testnet': {
    p2pkh: 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r',
    p2sh: 'QdqJHJa9kv3x4AksVMTQAkD3122J1Pbb8p',
    p2wpkh: 'tltc1qw508d6qejxtdg4y5r3zarvary0c5xw7klfsuq0',
    mweb: 'tmweb1qqvwuvwu32u2uzzgg2775h5mupwhsvraqqkzz7dha5kf2hmanrx466qel808k338l7xz5nmwncc6w42dgcuyncllspsy5tesa8k3de0sq6u0kgfkk',
  },
  'Litecoin regtest': {
    p2pkh: 'mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r',
    p2sh: 'QdqJHJa9kv3x4AksVMTQAkD3122J1Pbb8p',
    p2wpkh: 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k693xs3',
    mweb: 'tmweb1qqfzdhugssuyqtc79ys6a9jeg82juaw5jtglj473kqvca77vn0faaqq32elfxdfrxz50zhs22z2tmpn59pm9p4mg34jtxjn9pdlvvsxyrwvauqvuc',
  },
};
// testnet4 and signet share testnet's prefixes.
KNOWN['Bitcoin testnet4'] = KNOWN['Bitcoin testnet']!;
KNOWN['Bitcoin signet'] = KNOWN['Bitcoin testnet']!;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('the networks of the bitcoin profile', () => {
  it('knows Bitcoin’s five and Litecoin’s three, each by the hash of its genesis header', () => {
    expect(CORE_NETWORKS.map((n) => n.name)).toEqual(Object.keys(GENESIS_HEADERS));
    for (const n of CORE_NETWORKS) {
      expect(genesisHash(GENESIS_HEADERS[n.name]!), n.name).toBe(n.genesisHash);
      expect(coreNetworkByGenesis(n.genesisHash)).toBe(n);
    }
    expect(new Set(CORE_NETWORKS.map((n) => n.genesisHash)).size).toBe(CORE_NETWORKS.length);
    expect(coreNetworkByGenesis('00'.repeat(32))).toBeUndefined();
  });

  it('names each network and its unit: BTC and LTC on mainnet, tBTC and tLTC on every test network', () => {
    expect(
      CORE_NETWORKS.map((n) => [n.name, n.chain, n.units.symbol, n.units.baseUnit, n.blockSeconds]),
    ).toEqual([
      ['Bitcoin mainnet', 'main', 'BTC', 'satoshi', 600],
      ['Bitcoin testnet', 'test', 'tBTC', 'satoshi', 600],
      ['Bitcoin testnet4', 'testnet4', 'tBTC', 'satoshi', 600],
      ['Bitcoin signet', 'signet', 'tBTC', 'satoshi', 600],
      ['Bitcoin regtest', 'regtest', 'tBTC', 'satoshi', 600],
      ['Litecoin mainnet', 'main', 'LTC', 'litoshi', 150],
      ['Litecoin testnet', 'test', 'tLTC', 'litoshi', 150],
      ['Litecoin regtest', 'regtest', 'tLTC', 'litoshi', 150],
    ]);
  });

  it('decodes a known address of each kind on each network with its prefixes, and encodes it back', () => {
    for (const n of CORE_NETWORKS) {
      const known = KNOWN[n.name]!;
      const pkh = decodeBase58Check(known.p2pkh);
      expect({ version: pkh?.version, payload: hex(pkh!.payload) }, n.name).toEqual({
        version: n.base58.pubkeyHash,
        payload: KEY_HASH,
      });
      expect(encodeBase58Check(n.base58.pubkeyHash, Buffer.from(KEY_HASH, 'hex'))).toBe(known.p2pkh);

      const sh = decodeBase58Check(known.p2sh);
      expect({ version: sh?.version, payload: hex(sh!.payload) }, n.name).toEqual({
        version: n.base58.scriptHash,
        payload: NESTED_HASH,
      });
      expect(encodeBase58Check(n.base58.scriptHash, Buffer.from(NESTED_HASH, 'hex'))).toBe(known.p2sh);

      const wpkh = decodeSegwitAddress(known.p2wpkh);
      expect({ hrp: wpkh?.hrp, version: wpkh?.version, program: hex(wpkh!.program) }, n.name).toEqual({
        hrp: n.bech32Hrp,
        version: 0,
        program: KEY_HASH,
      });
      expect(encodeSegwitAddress(n.bech32Hrp, 0, Buffer.from(KEY_HASH, 'hex'))).toBe(known.p2wpkh);

      // MWEB addresses are bech32 far past BIP173's 90 characters: a scan and a spend key, 66 bytes.
      if (n.mwebHrp) {
        const m = bech32.decode(known.mweb as `${string}1${string}`, false);
        expect({ hrp: m.prefix, bytes: bech32.fromWords(m.words.slice(1)).length }, n.name).toEqual({
          hrp: n.mwebHrp,
          bytes: 66,
        });
      } else expect(known.mweb).toBeUndefined();
    }
  });

  it('reads Litecoin’s older P2SH version byte, Bitcoin’s, which its nodes still accept', () => {
    expect(byName('Litecoin mainnet').base58.legacyScriptHash).toBe(
      decodeBase58Check('3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN')?.version,
    );
    expect(byName('Litecoin testnet').base58.legacyScriptHash).toBe(
      decodeBase58Check('2NAUYAHhujozruyzpsFRP63mbrdaU5wnEpN')?.version,
    );
    expect(
      CORE_NETWORKS.filter((n) => n.coin === 'bitcoin').every((n) => n.base58.legacyScriptHash === null),
    ).toBe(true);
  });

  it('finds networks by the chain name a node reports, mainnet and testnet read as main and test', () => {
    expect(coreChainName('mainnet')).toBe('main');
    expect(coreChainName('testnet4')).toBe('testnet4');
    expect(coreNetworksByChain('testnet').map((n) => n.name)).toEqual([
      'Bitcoin testnet',
      'Litecoin testnet',
    ]);
    expect(coreNetworksByChain('test').map((n) => n.dataSubdir)).toEqual(['testnet3', 'testnet4']);
    expect(coreNetworksByChain('regtest', 'litecoin').map((n) => [n.name, n.rpcPort])).toEqual([
      ['Litecoin regtest', 19443],
    ]);
    expect(coreNetworksByChain('main', 'bitcoin').map((n) => [n.rpcPort, n.dataSubdir])).toEqual([
      [8332, ''],
    ]);
    expect(coreNetworksByChain('nowhere')).toEqual([]);
  });
});
