import { deriveAddressTexts, PEARL_NETWORKS, parseWalletKey, pearlWalletChain } from '@explorer/chain';
import { ServiceUnavailableError } from '@explorer/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createWalletPool, type WalletPool } from './wallet-pool.js';

// A test network's account key (rust-miniscript's descriptor tests), read as a Pearl regtest taproot key.
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
const chain = pearlWalletChain(PEARL_NETWORKS.regtest);
const job = (step: number, count = 100) => ({
  key: `tr(${TPUB}/${step}/<0;1>/*)`,
  chain,
  branch: 0,
  from: 0,
  count,
});

describe('the wallet derivation pool (worker threads)', () => {
  let pool: WalletPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('derives in its threads what the library derives in this one', async () => {
    pool = createWalletPool(1);
    const [a, b] = await Promise.all([pool.derive(job(1)), pool.derive({ ...job(1), branch: 1, from: 7 })]);
    expect(a).toEqual(deriveAddressTexts(job(1)));
    expect(b).toEqual(deriveAddressTexts({ ...job(1), branch: 1, from: 7 }));
    expect(a[0]).toMatch(/^rprl1p/);
    expect(parseWalletKey(job(1).key, chain).script).toBe('tr');
  });

  it('refuses a job past its queue with a 503 and Retry-After, and derives the rest', async () => {
    pool = createWalletPool(1, { queuePerThread: 2 });
    const settled = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => pool!.derive(job(100 + i, 200))),
    );
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason);
    const derived = settled.filter((s) => s.status === 'fulfilled');
    expect(derived.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(12 - 3);
    for (const err of refused) {
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(err).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
      expect(err.message).toBe('wallet key derivation is busy (2 derivations queued); retry in a second');
    }
    // Once the queue drained, jobs are taken again.
    expect(await pool.derive(job(99, 5))).toEqual(deriveAddressTexts(job(99, 5)));
  });

  it('derives in the request thread with 0 threads', async () => {
    pool = createWalletPool(0);
    expect(pool.threads).toBe(0);
    expect(await pool.derive(job(2, 3))).toEqual(deriveAddressTexts(job(2, 3)));
  });
});
