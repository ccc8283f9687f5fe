import { indexNode, type NodeFixture } from '@explorer/chain-fixture';
import { type Litecoind, litecoindAvailable, startLitecoind, testDrivers } from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The many-address endpoints against a real node's wallet (Litecoin Core regtest): the merged UTXOs of several
// wallet addresses of every type are exactly what `listunspent` reports for them.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[address-lists] litecoind tests skipped: ${unavailable}`);
// The production path is PostgreSQL; PGlite stands in where no server answers.
const driver = testDrivers().at(-1)!;

interface Unspent {
  txid: string;
  vout: number;
  address: string;
  amount: number;
  confirmations: number;
}

/** A decimal coin amount as the node writes it, in base units. */
const units = (coins: number) => String(Math.round(coins * 1e8));

describe.skipIf(unavailable !== null)(`many addresses in one request against litecoind (${driver})`, () => {
  let node: Litecoind;
  let f: NodeFixture;
  let wallet: string[];
  /** A transaction that pays two of the wallet's addresses at once. */
  let shared: string;

  const get = (path: string) => f.get(path);

  beforeAll(async () => {
    node = await startLitecoind();
    await node.mine(101);
    wallet = await Promise.all(
      (['legacy', 'p2sh-segwit', 'bech32', 'bech32', 'legacy', 'p2sh-segwit'] as const).map((t) =>
        node.newAddress(t),
      ),
    );
    // Each payment's outputs to the wallet's addresses are locked at once, so the wallet's own coin selection
    // never spends them: only the two spends below, made with coin control, do.
    const lockOurs = async () => {
      const ours = await node.rpc<Unspent[]>('listunspent', 0, 9_999_999, wallet);
      await node.rpc(
        'lockunspent',
        false,
        ours.map((u) => ({ txid: u.txid, vout: u.vout })),
      );
    };
    for (const [i, a] of wallet.entries()) {
      await node.send(a, 1 + i / 4);
      await lockOurs();
    }
    await node.send(wallet[2]!, 0.75);
    await lockOurs();
    shared = await node.rpc<string>('sendmany', '', { [wallet[0]!]: 0.5, [wallet[3]!]: 0.6 });
    await lockOurs();
    await node.mine(1);
    // listunspent leaves locked outputs out; raw transactions name their inputs, so nothing else moves.
    await node.rpc('lockunspent', true);
    // Spend two of the wallet's outputs exactly (coin control), to an address outside the list.
    const outside = await node.newAddress('bech32');
    const mine = await node.rpc<Unspent[]>('listunspent', 1, 9_999_999, [wallet[1], wallet[4]]);
    for (const u of mine.slice(0, 2)) {
      const raw = await node.rpc<string>('createrawtransaction', [{ txid: u.txid, vout: u.vout }], {
        [outside]: Number((u.amount - 0.001).toFixed(8)),
      });
      const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', raw);
      await node.rpc('sendrawtransaction', signed.hex);
    }
    await node.mine(1);

    f = await indexNode(driver, node.rpcUrl);
  }, 180_000);
  afterAll(async () => {
    await f?.close();
    await node?.stop();
  });

  it('merges the UTXOs of the wallet’s addresses into exactly what listunspent reports, across pages', async () => {
    const unspent = await node.rpc<Unspent[]>('listunspent', 1, 9_999_999, wallet);
    const utxos: any[] = [];
    let cursor: string | undefined;
    do {
      const { status, body } = await get(
        `/v1/addresses/utxos?addresses=${wallet.join(',')}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(status).toBe(200);
      utxos.push(...body.utxos);
      cursor = body.pagination.nextCursor;
    } while (cursor);
    const key = (u: { txid: string; vout: number }) => `${u.txid}:${u.vout}`;
    expect(
      utxos
        .map((u) => ({ at: key(u), address: u.address, value: u.value }))
        .sort((a, b) => a.at.localeCompare(b.at)),
    ).toEqual(
      unspent
        .map((u) => ({ at: key(u), address: u.address, value: units(u.amount) }))
        .sort((a, b) => a.at.localeCompare(b.at)),
    );
    // Newest first, each with the node's confirmations.
    const tip = await node.rpc<number>('getblockcount');
    for (const u of utxos) {
      const node_ = unspent.find((x) => key(x) === key(u))!;
      expect(u.confirmations).toBe(node_.confirmations);
      expect(u.blockHeight).toBe(tip - node_.confirmations + 1);
    }
    expect(unspent.length).toBe(7);
    // Nine outputs paid the wallet, two were spent (all of two addresses' outputs): seven left on four addresses.
    expect(new Set(unspent.map((u) => u.address)).size).toBe(4);
  });

  it('sums each address’s balance as the node’s unspent outputs do, and lists a shared payment once', async () => {
    const unspent = await node.rpc<Unspent[]>('listunspent', 1, 9_999_999, wallet);
    const { body } = await get(`/v1/addresses?addresses=${wallet.join(',')}`);
    expect(body.addresses.map((a: any) => a.address)).toEqual(wallet);
    for (const a of body.addresses) {
      const sum = unspent
        .filter((u) => u.address === a.address)
        .reduce((s, u) => s + BigInt(units(u.amount)), 0n);
      expect({ address: a.address, balance: a.balance }).toEqual({
        address: a.address,
        balance: String(sum),
      });
    }
    const { body: history } = await get(`/v1/addresses/txs?addresses=${wallet.join(',')}&limit=100`);
    const rows = history.txs.filter((t: any) => t.txid === shared);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ addresses: [wallet[0], wallet[3]], received: units(1.1), sent: '0' });
  });
});
