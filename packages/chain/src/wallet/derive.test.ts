import { pearlVectors } from '@explorer/test-vectors';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { encodeBase58Check, encodeSegwitAddress } from '../address.js';
import { CORE_NETWORKS, type CoreNetwork } from '../bitcoin/params.js';
import { hash160 } from '../hash.js';
import { PEARL_NETWORKS } from '../pearl/params.js';
import { p2trScript, pearlScriptAddress } from '../pearl/script.js';
import { deriveAddresses, MAX_DERIVE_COUNT } from './derive.js';
import { coreWalletChain, pearlWalletChain } from './wallet-chain.js';
import { parseWalletKey } from './wallet-key.js';

const core = (coin: string, chain: string): CoreNetwork =>
  CORE_NETWORKS.find((n) => n.coin === coin && n.chain === chain) as CoreNetwork;
const BITCOIN = coreWalletChain(core('bitcoin', 'main'));
const BITCOIN_TEST = coreWalletChain(core('bitcoin', 'test'));
const LITECOIN_REGTEST = coreWalletChain(core('litecoin', 'regtest'));
const PEARL = pearlWalletChain(PEARL_NETWORKS.mainnet);
const PEARL_TEST = pearlWalletChain(PEARL_NETWORKS.testnet);
const PEARL_REGTEST = pearlWalletChain(PEARL_NETWORKS.regtest);

const pubOf = (xpub: string, versions?: { public: number; private: number }) =>
  Buffer.from(HDKey.fromExtendedKey(xpub, versions).publicKey as Uint8Array).toString('hex');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// BIP39's "abandon ×11 about" with no passphrase: the seed of BIP84's and BIP86's vectors and of Pearl's wallet's.
const SEED = Buffer.from(pearlVectors['6_addresses_and_txs'].seedHex as string, 'hex');

describe('BIP32 public derivation (BIP32 test vectors 1 and 2)', () => {
  it('derives the unhardened children the vectors list, from their parents’ xpubs', () => {
    // Vector 1: m/0H → m/0H/1; m/0H/1/2H → /2 → /1000000000.
    const v1 = parseWalletKey(
      'pkh(xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw/*)',
      BITCOIN,
    );
    expect(deriveAddresses(v1, { branch: 0, from: 1, count: 1 })[0]?.publicKey).toBe(
      pubOf(
        'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
      ),
    );
    const v1deep = parseWalletKey(
      'pkh(xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5/<2;3>/*)',
      BITCOIN,
    );
    expect(v1deep.branchNode(0).publicExtendedKey).toBe(
      'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
    );
    expect(deriveAddresses(v1deep, { branch: 0, from: 1_000_000_000, count: 1 })[0]).toMatchObject({
      index: 1_000_000_000,
      path: '2/1000000000',
      publicKey: pubOf(
        'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
      ),
    });
    // Vector 2: m → m/0; m/0/2147483647H/1/2147483646H → /2.
    const v2 = parseWalletKey(
      'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
      BITCOIN,
    );
    expect(v2.branchNode(0).publicExtendedKey).toBe(
      'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    );
    const v2deep = parseWalletKey(
      'pkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/*)',
      BITCOIN,
    );
    const [child] = deriveAddresses(v2deep, { branch: 0, from: 2, count: 1 });
    const expected = pubOf(
      'xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt',
    );
    expect(child?.publicKey).toBe(expected);
    // P2PKH of that key, built here from its HASH160.
    expect(child?.address).toBe(encodeBase58Check(0, hash160(Buffer.from(expected, 'hex'))));
    expect(child?.scriptPubKey).toBe(`76a914${hex(hash160(Buffer.from(expected, 'hex')))}88ac`);
  });
});

// BIP86's vectors: account m/86'/0'/0' of the abandon mnemonic (master fingerprint 73c5da0a).
const BIP86_XPUB =
  'xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ';
const BIP86 = [
  {
    branch: 0,
    index: 0,
    internal: 'cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115',
    output: 'a60869f0dbcf1dc659c9cecbaf8050135ea9e8cdc487053f1dc6880949dc684c',
    address: 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
  },
  {
    branch: 0,
    index: 1,
    internal: '83dfe85a3151d2517290da461fe2815591ef69f2b18a2ce63f01697a8b313145',
    output: 'a82f29944d65b86ae6b5e5cc75e294ead6c59391a1edc5e016e3498c67fc7bbb',
    address: 'bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh',
  },
  {
    branch: 1,
    index: 0,
    internal: '399f1b2f4393f29a18c937859c5dd8a77350103157eb880f02e8c08214277cef',
    output: '882d74e5d0572d5a816cef0041a96b6c1de832f6f9676d9605c44d5e9a97d3dc',
    address: 'bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7',
  },
] as const;

describe('BIP86 taproot (BIP86 test vectors)', () => {
  it('derives the listed receive and change addresses, internal and output keys from the account xpub', () => {
    const key = parseWalletKey(`tr([73c5da0a/86'/0'/0']${BIP86_XPUB}/<0;1>/*)`, BITCOIN);
    expect(key.script).toBe('tr');
    for (const v of BIP86) {
      const [a] = deriveAddresses(key, { branch: v.branch, from: v.index, count: 1 });
      expect(a).toMatchObject({
        address: v.address,
        scriptPubKey: `5120${v.output}`,
        path: `m/86'/0'/0'/${v.branch}/${v.index}`,
      });
      expect(a?.publicKey.slice(2)).toBe(v.internal);
    }
    // The canonical descriptor keeps origin and multipath, and carries a checksum that verifies.
    expect(key.descriptor).toMatch(/^tr\(\[73c5da0a\/86'\/0'\/0'\]xpub6BgB.*\/<0;1>\/\*\)#[a-z0-9]{8}$/);
    expect(parseWalletKey(key.descriptor, BITCOIN).descriptor).toBe(key.descriptor);
  });

  it('gives the same keys under Pearl’s HRP, equal to the chain package’s own P2TR address of the output key', () => {
    // A bare key on Pearl derives taproot (BIP86), receive /0/i and change /1/i.
    const key = parseWalletKey(BIP86_XPUB, PEARL);
    expect(key.script).toBe('tr');
    for (const v of BIP86) {
      const [a] = deriveAddresses(key, { branch: v.branch, from: v.index, count: 1 });
      const independent = pearlScriptAddress(p2trScript(Buffer.from(v.output, 'hex')), 'prl');
      expect(a?.address).toBe(independent);
      expect(a?.address).toBe(encodeSegwitAddress('prl', 1, Buffer.from(v.output, 'hex')));
      expect(a?.address.startsWith('prl1p')).toBe(true);
      expect(a?.path).toBe(`${v.branch}/${v.index}`);
    }
    const regtest = parseWalletKey(`tr(${BIP86_XPUB.replace(/^xpub/, 'xpub')}/0/*)`, PEARL);
    expect(deriveAddresses(regtest, { branch: 0, from: 0, count: 1 })[0]?.address).toBe(
      encodeSegwitAddress('prl', 1, Buffer.from(BIP86[0].output, 'hex')),
    );
  });
});

describe('Pearl’s wallet (vectors from Pearl’s mobile wallet: m/86’/coin’/0’/0/i)', () => {
  const vectors = pearlVectors['6_addresses_and_txs'].address_vectors.filter(
    (v: { path?: string }) => v.path !== undefined,
  ) as { network: string; path: string; address: string; scriptPubKey: string }[];

  it('derives mainnet (zpub, coin 808276) and testnet (vpub, coin 1) addresses from the account key', () => {
    expect(vectors.length).toBe(6);
    for (const [network, chain] of [
      ['mainnet', PEARL],
      ['testnet', PEARL_TEST],
    ] as const) {
      const hd = PEARL_NETWORKS[network].hd;
      const account = HDKey.fromMasterSeed(SEED, { public: hd.public, private: hd.private }).derive(
        `m/86'/${hd.coinType}'/0'`,
      );
      const zpub = account.publicExtendedKey;
      expect(zpub.slice(0, 4)).toBe(network === 'mainnet' ? 'zpub' : 'vpub');
      const key = parseWalletKey(zpub, chain);
      const mine = vectors.filter((v) => v.network === network);
      expect(mine.length).toBe(3);
      const derived = deriveAddresses(key, { branch: 0, from: 0, count: 3 });
      for (const v of mine) {
        const index = Number(v.path.split('/').at(-1));
        expect(derived[index]).toMatchObject({ address: v.address, scriptPubKey: v.scriptPubKey });
      }
      // With the origin, paths are Pearl's own.
      const fp = HDKey.fromMasterSeed(SEED).fingerprint.toString(16).padStart(8, '0');
      const withOrigin = parseWalletKey(`tr([${fp}/86'/${hd.coinType}'/0']${zpub}/<0;1>/*)`, chain);
      const [first] = deriveAddresses(withOrigin, { branch: 0, from: 0, count: 1 });
      expect(first?.path).toBe(mine[0]?.path);
      expect(first?.address).toBe(mine[0]?.address);
    }
  });

  it('takes regtest’s vpub and the plain tpub alike, and writes rprl addresses', () => {
    const account = HDKey.fromMasterSeed(SEED).derive("m/86'/1'/0'");
    const tpub = encode(account, 0x043587cf);
    const vpub = encode(account, PEARL_NETWORKS.regtest.hd.public);
    const a = deriveAddresses(parseWalletKey(tpub, PEARL_REGTEST), { branch: 1, from: 0, count: 2 });
    const b = deriveAddresses(parseWalletKey(vpub, PEARL_REGTEST), { branch: 1, from: 0, count: 2 });
    expect(a).toEqual(b);
    expect(a[0]?.address.startsWith('rprl1p')).toBe(true);
  });
});

function encode(node: HDKey, version: number): string {
  return new HDKey({
    versions: { public: version, private: 0 },
    depth: node.depth,
    index: node.index,
    parentFingerprint: node.parentFingerprint,
    chainCode: node.chainCode as Uint8Array,
    publicKey: node.publicKey as Uint8Array,
  }).publicExtendedKey;
}

describe('BIP84 and BIP49 (their test vectors)', () => {
  it('derives BIP84’s bc1q addresses from the account zpub (P2WPKH by its prefix)', () => {
    const zpub = HDKey.fromMasterSeed(SEED, { public: 0x04b24746, private: 0x04b2430c }).derive(
      "m/84'/0'/0'",
    );
    // BIP84 lists the account's zprv; its zpub is the public half.
    expect(zpub.privateExtendedKey).toBe(
      'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE',
    );
    const key = parseWalletKey(zpub.publicExtendedKey, BITCOIN);
    expect(key.script).toBe('wpkh');
    const receive = deriveAddresses(key, { branch: 0, from: 0, count: 2 });
    expect(receive.map((a) => a.address)).toEqual([
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
    ]);
    expect(receive.map((a) => a.publicKey)).toEqual([
      '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
      '03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77',
    ]);
    const [change] = deriveAddresses(key, { branch: 1, from: 0, count: 1 });
    expect(change?.address).toBe('bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
    expect(change?.publicKey).toBe('03025324888e429ab8e3dbaf1f7802648b9cd01e9b418485c5fa4c1b9b5700e1a6');
    // The descriptor is written with the xpub serialization of the same key.
    expect(key.descriptor).toMatch(/^wpkh\(xpub[1-9A-HJ-NP-Za-km-z]+\/<0;1>\/\*\)#/);
  });

  it('derives BIP49’s testnet P2SH-P2WPKH address from the account upub', () => {
    const key = parseWalletKey(
      'upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY',
      BITCOIN_TEST,
    );
    expect(key.script).toBe('sh-wpkh');
    const [a] = deriveAddresses(key, { branch: 0, from: 0, count: 1 });
    expect(a).toMatchObject({
      publicKey: '03a1af804ac108a8a51782198c2d034b28bf90c8803f5a53f76276fa69a4eae77f',
      address: '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2',
      scriptPubKey: 'a914336caa13e08b96080a32b5d818d59b4ab3b3674287',
    });
  });

  it('writes Litecoin regtest’s rltc and version-111 addresses for the same keys', () => {
    const account = HDKey.fromMasterSeed(SEED).derive("m/84'/1'/0'");
    const tpub = encode(account, 0x043587cf);
    const [w] = deriveAddresses(parseWalletKey(`wpkh(${tpub}/0/*)`, LITECOIN_REGTEST), {
      branch: 0,
      from: 0,
      count: 1,
    });
    const pub = Buffer.from(w?.publicKey as string, 'hex');
    expect(w?.address).toBe(encodeSegwitAddress('rltc', 0, hash160(pub)));
    expect(w?.address.startsWith('rltc1q')).toBe(true);
    const [p] = deriveAddresses(parseWalletKey(tpub, LITECOIN_REGTEST), { branch: 0, from: 0, count: 1 });
    expect(p?.address).toBe(encodeBase58Check(111, hash160(pub)));
    const [t] = deriveAddresses(parseWalletKey(`tr(${tpub}/0/*)`, LITECOIN_REGTEST), {
      branch: 0,
      from: 0,
      count: 1,
    });
    expect(t?.address.startsWith('rltc1p')).toBe(true);
  });
});

describe('ranges', () => {
  const key = parseWalletKey(BIP86_XPUB, PEARL);

  it('are deterministic and consistent whatever the window', () => {
    const all = deriveAddresses(key, { branch: 0, from: 0, count: 8 });
    expect(deriveAddresses(key, { branch: 0, from: 5, count: 3 })).toEqual(all.slice(5));
    expect(deriveAddresses(parseWalletKey(BIP86_XPUB, PEARL), { branch: 0, from: 0, count: 8 })).toEqual(all);
    expect(new Set(all.map((a) => a.address)).size).toBe(8);
    expect(deriveAddresses(key, { branch: 1, from: 0, count: 0 })).toEqual([]);
  });

  it(`derive ${MAX_DERIVE_COUNT} taproot addresses in one call, and refuse more`, () => {
    const many = deriveAddresses(key, {
      branch: 1,
      from: 2_147_483_647 - MAX_DERIVE_COUNT + 1,
      count: MAX_DERIVE_COUNT,
    });
    expect(many.length).toBe(MAX_DERIVE_COUNT);
    expect(many.at(-1)?.index).toBe(2_147_483_647);
  });
});
