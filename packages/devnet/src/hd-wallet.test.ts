import { deriveAddresses, PEARL_NETWORKS, parseWalletKey, pearlWalletChain } from '@explorer/chain';
import { describe, expect, it } from 'vitest';
import { auditChain } from './audit.js';
import { bitcoinDialect } from './chain/dialect.js';
import { createDevnet, type Devnet } from './index.js';
import { HD_WALLET_CHANGE, HD_WALLET_RECEIVE } from './node.js';

/** Every output address of the chain, with what it was paid. */
async function paidAddresses(d: Devnet): Promise<Map<string, number>> {
  const paid = new Map<string, number>();
  for (let h = 0; h <= d.height(); h++) {
    const block = (await d.rpc('getblock', [await d.rpc('getblockhash', [h]), 2])) as Record<string, unknown>;
    const txs = (block.rawtx ?? block.tx) as {
      vout: { value: number; scriptPubKey: { address?: string } }[];
    }[];
    for (const tx of txs)
      for (const o of tx.vout) {
        const a = o.scriptPubKey.address;
        if (a) paid.set(a, (paid.get(a) ?? 0) + o.value);
      }
  }
  return paid;
}

// A test network's account key and its origin, from rust-miniscript's descriptor tests; BIP32 vector 1's master keys.
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const XPUB =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
const XPRV =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

const small = { blocks: 60, coinbaseMaturity: 10, txPerBlock: 4, proofSize: [200, 2000] as [number, number] };

describe('the hdWallet option', () => {
  it('pays the taproot addresses an xpub derives, on the Pearl devnet', async () => {
    const d = createDevnet({ ...small, hdWallet: TPUB });
    const paid = await paidAddresses(d);
    // Derived independently of the devnet, from the key alone.
    const key = parseWalletKey(TPUB, pearlWalletChain(PEARL_NETWORKS.regtest));
    const receive = deriveAddresses(key, { branch: 0, from: 0, count: HD_WALLET_RECEIVE + 1 });
    const change = deriveAddresses(key, { branch: 1, from: 0, count: HD_WALLET_CHANGE + 1 });
    for (const a of [...receive.slice(0, -1), ...change.slice(0, -1)]) {
      expect(a.address.startsWith('rprl1p')).toBe(true);
      expect(paid.get(a.address), a.path).toBeGreaterThan(0);
    }
    // The chain still adds up: what an indexer would find is what the devnet says it made.
    const defs = d.definitions();
    const audit = await auditChain((m, p) => d.rpc(m, p), {
      pools: defs.pools,
      burnAddresses: defs.labels.filter((l) => l.kind === 'burn').map((l) => l.address),
      halvingInterval: d.options.halvingInterval,
      dialect: d.options.dialect,
    });
    const { balances, busyAddresses, ...truth } = d.truth();
    expect(audit).toEqual(truth);
    // The next address of each branch is unused: the wallet's gap starts there.
    expect(paid.has(receive.at(-1)?.address as string)).toBe(false);
    expect(paid.has(change.at(-1)?.address as string)).toBe(false);
  });

  it('pays a descriptor’s P2WPKH addresses on the Bitcoin devnet, and leaves a devnet without one as it was', async () => {
    const descriptor = `wpkh([2cbe2a6d/44'/0'/0']${TPUB}/<0;1>/*)`;
    const d = createDevnet({ ...small, dialect: 'bitcoin', hdWallet: descriptor });
    const paid = await paidAddresses(d);
    const key = parseWalletKey(descriptor, bitcoinDialect(1000).walletChain);
    for (const a of deriveAddresses(key, { branch: 0, from: 0, count: HD_WALLET_RECEIVE })) {
      expect(a.address.startsWith('dvt1q')).toBe(true);
      expect(paid.get(a.address), a.path).toBeGreaterThan(0);
    }
    const plain = createDevnet({ ...small, dialect: 'bitcoin' });
    const again = createDevnet({ ...small, dialect: 'bitcoin', hdWallet: null });
    expect(again.tipHash()).toBe(plain.tipHash());
    expect(d.tipHash()).not.toBe(plain.tipHash());
  });

  it('pays as many addresses as hdWalletAddresses says, one per block', async () => {
    const d = createDevnet({ ...small, blocks: 50, hdWallet: TPUB, hdWalletAddresses: [25, 3] });
    const paid = await paidAddresses(d);
    const key = parseWalletKey(TPUB, pearlWalletChain(PEARL_NETWORKS.regtest));
    const receive = deriveAddresses(key, { branch: 0, from: 0, count: 26 });
    const change = deriveAddresses(key, { branch: 1, from: 0, count: 4 });
    expect(receive.map((a) => paid.has(a.address))).toEqual([...Array(25).fill(true), false]);
    expect(change.map((a) => paid.has(a.address))).toEqual([true, true, true, false]);
    expect(() => createDevnet({ ...small, hdWallet: TPUB, hdWalletAddresses: [-1, 0] })).toThrow(
      /hdWalletAddresses/,
    );
  });

  it('refuses a private key, and a key of another network, when the devnet is created', () => {
    expect(() => createDevnet({ ...small, hdWallet: XPRV })).toThrow(/never send private keys/);
    expect(() => createDevnet({ ...small, hdWallet: XPUB })).toThrow(/mainnet key/);
    expect(() => createDevnet({ ...small, dialect: 'bitcoin', hdWallet: XPUB })).toThrow(/mainnet key/);
  });
});
