import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { CORE_NETWORKS, type CoreNetwork } from '../bitcoin/params.js';
import { PEARL_NETWORKS } from '../pearl/params.js';
import { deriveAddresses, MAX_DERIVE_COUNT } from './derive.js';
import { WalletKeyError } from './errors.js';
import { KNOWN_VERSIONS } from './extended-key.js';
import { coreWalletChain, pearlWalletChain, type WalletChain } from './wallet-chain.js';
import { MAX_BRANCH_STEPS, parseWalletKey } from './wallet-key.js';

const core = (coin: string, chain: string) =>
  coreWalletChain(CORE_NETWORKS.find((n) => n.coin === coin && n.chain === chain) as CoreNetwork);
const BITCOIN = core('bitcoin', 'main');
const BITCOIN_REGTEST = core('bitcoin', 'regtest');
const PEARL = pearlWalletChain(PEARL_NETWORKS.mainnet);
const PEARL_REGTEST = pearlWalletChain(PEARL_NETWORKS.regtest);

// BIP32 test vector 2 (m/0/2147483647H/1/2147483646H) and BIP86's account key.
const XPUB =
  'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL';
const XPRV =
  'xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc';
const BIP86_XPUB =
  'xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3VCECoY49yfdDEHGCtMMj92pReUsQ';

function refusal(text: string, chain: WalletChain): WalletKeyError {
  try {
    parseWalletKey(text, chain);
  } catch (e) {
    if (e instanceof WalletKeyError) return e;
    throw e;
  }
  throw new Error(`accepted: ${text}`);
}

describe('private keys', () => {
  const privates = [
    XPRV,
    // BIP32 vector 1's master tprv-equivalent and BIP84's root zprv.
    'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    'zprvAWgYBBk7JR8Gjrh4UJQ2uJdG1r3WNRRfURiABBE3RvMXYSrRJL62XuezvGdPvG6GFBZduosCc1YP5wixPox7zhZLfiUm8aunE96BBa4Kei5',
    'uprv91G7gZkzehuMVxDJTYE6tLivdF8e4rvzSu1LFfKw3b2Qx1Aj8vpoFnHdfUZ3hmi9jsvPifmZ24RTN2KhwB8BfMLTVqaBReibyaFFcTP1s9n',
    // In descriptors (BIP380's valid private expressions), and WIF keys.
    `wpkh([deadbeef/0h/1h/2h]${XPRV}/3/4/5/*)`,
    `tr(${XPRV}/3h/4h/5h/*h)`,
    'wpkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)',
    'pkh(5KYZdUEo39z3FPrtuX2QbbwGnNP5zTd7yyr2SC1j299sBCnWjss)',
    `tr(${XPRV}/0/*)#00000000`,
  ];

  it('are refused first, on every chain, with a message that says not to send them and does not repeat them', () => {
    for (const text of privates) {
      for (const chain of [BITCOIN, BITCOIN_REGTEST, PEARL, PEARL_REGTEST]) {
        const e = refusal(text, chain);
        expect(e.code, text).toBe('private-key');
        expect(e.message).toMatch(/never send private keys/);
        expect(e.message).not.toContain(text.replace(/^\w+\(|\)$/g, '').slice(0, 20));
      }
    }
  });

  it('are recognised under version bytes no table lists, by the key field’s leading zero', () => {
    const node = HDKey.fromMasterSeed(Buffer.alloc(32, 7), { public: 0x01020304, private: 0x01020305 });
    expect(refusal(node.privateExtendedKey, BITCOIN).code).toBe('private-key');
    // Pearl's own private serializations (zprv mainnet, vprv test networks).
    const pearl = HDKey.fromMasterSeed(Buffer.alloc(32, 7), {
      public: PEARL_NETWORKS.mainnet.hd.public,
      private: PEARL_NETWORKS.mainnet.hd.private,
    });
    expect(pearl.privateExtendedKey.startsWith('zprv')).toBe(true);
    expect(refusal(pearl.privateExtendedKey, PEARL).code).toBe('private-key');
  });
});

describe('refusals', () => {
  it('a hardened step after the extended public key', () => {
    expect(refusal(`pkh(${XPUB}/3h/4h/5h/*)`, BITCOIN).code).toBe('hardened-step');
    expect(refusal(`pkh(${XPUB}/3/4'/*)`, BITCOIN).code).toBe('hardened-step');
    expect(refusal(`pkh(${XPUB}/*h)`, BITCOIN).code).toBe('hardened-step');
    expect(refusal(`pkh(${XPUB}/<0h;1>/*)`, BITCOIN).code).toBe('hardened-step');
    // Hardened steps in the origin are what origins are for.
    expect(parseWalletKey(`pkh([deadbeef/0h/1h/2]${XPUB}/3/*)`, BITCOIN).path(0, 7)).toBe("m/0'/1'/2/3/7");
  });

  it('a key deeper than BIP32 can serialize, or more steps before the index than a wallet has', () => {
    // Depth 255 is the most one byte holds: its child would be 256.
    const deep = new HDKey({
      publicKey: HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).publicKey!,
      chainCode: new Uint8Array(32).fill(1),
      depth: 255,
      index: 0,
      parentFingerprint: 0,
    });
    const e = refusal(deep.publicExtendedKey, BITCOIN);
    expect(e.code).toBe('unsupported');
    expect(e.message).toMatch(/deeper than a wallet goes/);
    const steps = Array.from({ length: MAX_BRANCH_STEPS + 1 }, () => '0').join('/');
    expect(refusal(`pkh(${XPUB}/${steps}/*)`, BITCOIN).code).toBe('unsupported');
    expect(refusal(`pkh(${XPUB}/${'0/'.repeat(252)}*)`, BITCOIN).code).toBe('unsupported');
    // The most steps a wallet may have still derive.
    const most = Array.from({ length: MAX_BRANCH_STEPS }, () => '0').join('/');
    expect(
      deriveAddresses(parseWalletKey(`pkh(${XPUB}/${most}/*)`, BITCOIN), { branch: 0, from: 0, count: 1 }),
    ).toHaveLength(1);
  });

  it('a wrong or malformed checksum', () => {
    const good = parseWalletKey(`tr(${BIP86_XPUB}/<0;1>/*)`, PEARL).descriptor;
    expect(parseWalletKey(good, PEARL).descriptor).toBe(good);
    const sum = good.slice(-8);
    const wrong = `${good.slice(0, -8)}${sum[0] === 'q' ? 'p' : 'q'}${sum.slice(1)}`;
    expect(refusal(wrong, PEARL).code).toBe('bad-checksum');
    expect(refusal(good.replace('<0;1>', '<1;0>'), PEARL).code).toBe('bad-checksum');
    expect(refusal(`${good}x`, PEARL).code).toBe('bad-checksum');
    expect(refusal(`${good.slice(0, -8)}`, PEARL).code).toBe('bad-checksum');
  });

  it('a key of another network, where its version bytes tell', () => {
    const tpub = HDKey.fromMasterSeed(Buffer.alloc(32, 1), {
      public: 0x043587cf,
      private: 0x04358394,
    }).publicExtendedKey;
    expect(refusal(tpub, BITCOIN)).toMatchObject({ code: 'wrong-network' });
    expect(refusal(tpub, BITCOIN).message).toMatch(
      /tpub is a test network key, and this chain is Bitcoin mainnet/,
    );
    expect(refusal(XPUB, BITCOIN_REGTEST).code).toBe('wrong-network');
    expect(refusal(`wpkh(${tpub}/0/*)`, PEARL).code).toBe('wrong-network');
    expect(refusal(XPUB, PEARL_REGTEST).code).toBe('wrong-network');
    // ypub means P2SH-P2WPKH, which Pearl does not have; a Pearl simnet spub is no regtest key.
    const ypub = HDKey.fromMasterSeed(Buffer.alloc(32, 1), {
      public: 0x049d7cb2,
      private: 0x049d7878,
    }).publicExtendedKey;
    expect(refusal(ypub, PEARL).code).toBe('wrong-network');
    const spub = HDKey.fromMasterSeed(Buffer.alloc(32, 1), {
      public: 0x0420bd3a,
      private: 0x0420b900,
    }).publicExtendedKey;
    expect(refusal(spub, PEARL_REGTEST).code).toBe('wrong-network');
    expect(parseWalletKey(spub, pearlWalletChain(PEARL_NETWORKS.simnet)).script).toBe('tr');
  });

  it('scripts a chain lacks, scripts the key’s prefix contradicts, and descriptors this module does not read', () => {
    expect(refusal(`wpkh(${BIP86_XPUB}/0/*)`, PEARL).code).toBe('unsupported');
    expect(refusal(`pkh(${BIP86_XPUB}/0/*)`, PEARL).code).toBe('unsupported');
    const zpub = HDKey.fromMasterSeed(Buffer.alloc(32, 1), {
      public: 0x04b24746,
      private: 0x04b2430c,
    }).publicExtendedKey;
    expect(refusal(`pkh(${zpub}/0/*)`, BITCOIN).message).toMatch(/zpub is a P2WPKH key/);
    expect(parseWalletKey(`wpkh(${zpub}/0/*)`, BITCOIN).script).toBe('wpkh');
    // On Pearl mainnet the zpub is Pearl's own taproot key.
    expect(parseWalletKey(zpub, PEARL).script).toBe('tr');
    expect(refusal(`wsh(multi(1,${XPUB}/0/*))`, BITCOIN).code).toBe('unsupported');
    expect(refusal(`tr(${XPUB}/0/*,pk(${XPUB}/1/*))`, BITCOIN).code).toBe('unsupported');
    expect(refusal(`pkh(${XPUB}/0/1)`, BITCOIN).code).toBe('unsupported');
    expect(
      refusal('wpkh(0260b2003c386519fc9eadf2b5cf124dd8eea4c4e68d5e154050a9346ea98ce600)', BITCOIN).code,
    ).toBe('unsupported');
    expect(refusal(`pkh(${XPUB}/<0;1;2>/*)`, BITCOIN).code).toBe('unsupported');
    expect(refusal(`pkh(${XPUB}/<0;1>/<2;3>/*)`, BITCOIN).code).toBe('invalid-key');
    expect(refusal(`pkh([deadbef/0h]${XPUB}/*)`, BITCOIN).code).toBe('invalid-key');
    expect(refusal(`pkh([deadbeef/0h/]${XPUB}/*)`, BITCOIN).code).toBe('invalid-key');
    expect(refusal('not a key', BITCOIN).code).toBe('invalid-key');
    expect(refusal(`${XPUB.slice(0, -1)}x`, BITCOIN).code).toBe('invalid-key');
  });

  it('text that is not a descriptor at all, however it starts, as not a descriptor', () => {
    const unbalanced =
      'not a descriptor: its parentheses do not match; write tr(KEY), wpkh(KEY), sh(wpkh(KEY)) or pkh(KEY), with KEY an extended public key';
    for (const text of [
      'tr((((',
      'tr(',
      `wpkh(${XPUB}/0/*`,
      `sh(wpkh(${XPUB}/0/*)`,
      `pkh(${XPUB}/0/*))`,
      ')tr(',
    ]) {
      expect(refusal(text, BITCOIN), text).toMatchObject({ code: 'invalid-key', message: unbalanced });
    }
    // A well-formed descriptor of a kind not read still says so.
    expect(refusal(`wsh(multi(1,${XPUB}/0/*))`, BITCOIN).message).toMatch(
      /^wsh\(\) descriptors are not read/,
    );
    expect(refusal('tr()', BITCOIN).message).toBe('expected an extended public key in the descriptor');
  });

  it('a range past the bound, into hardened indexes, or on a branch the descriptor lacks', () => {
    const key = parseWalletKey(BIP86_XPUB, PEARL);
    const bad = (range: { branch: number; from: number; count: number }, k = key) => {
      try {
        deriveAddresses(k, range);
      } catch (e) {
        return (e as WalletKeyError).code;
      }
      return 'accepted';
    };
    expect(bad({ branch: 0, from: 0, count: MAX_DERIVE_COUNT + 1 })).toBe('bad-range');
    expect(bad({ branch: 0, from: 0x7fffffff, count: 2 })).toBe('bad-range');
    expect(bad({ branch: 0, from: -1, count: 1 })).toBe('bad-range');
    expect(bad({ branch: 0, from: 0.5, count: 1 })).toBe('bad-range');
    expect(bad({ branch: 2, from: 0, count: 1 })).toBe('bad-range');
    expect(bad({ branch: 0, from: 0x7fffffff, count: 1 })).toBe('accepted');
    const receiveOnly = parseWalletKey(`tr(${BIP86_XPUB}/0/*)`, PEARL);
    expect(receiveOnly.branchCount).toBe(1);
    expect(bad({ branch: 1, from: 0, count: 1 }, receiveOnly)).toBe('bad-range');
  });
});

describe('the version table', () => {
  it('names each version by the prefix its Base58Check text starts with', () => {
    const node = HDKey.fromMasterSeed(Buffer.alloc(32, 3));
    for (const v of KNOWN_VERSIONS) {
      const text = v.private
        ? new HDKey({
            versions: { public: 0, private: v.version },
            chainCode: node.chainCode as Uint8Array,
            privateKey: node.privateKey as Uint8Array,
          }).privateExtendedKey
        : new HDKey({
            versions: { public: v.version, private: 0 },
            chainCode: node.chainCode as Uint8Array,
            publicKey: node.publicKey as Uint8Array,
          }).publicExtendedKey;
      expect(text.slice(0, 4), v.prefix).toBe(v.prefix);
    }
    // Pearl's and Core's chain parameters use versions from it.
    for (const n of Object.values(PEARL_NETWORKS)) {
      expect(KNOWN_VERSIONS.find((v) => v.version === n.hd.public)?.private).toBe(false);
      expect(KNOWN_VERSIONS.find((v) => v.version === n.hd.private)?.private).toBe(true);
    }
  });
});
