import { indexNode, type NodeFixture } from '@explorer/chain-fixture';
import {
  type ContractReader,
  contractReader,
  createResponseValidator,
  type Litecoind,
  litecoindAvailable,
  startLitecoind,
  testDrivers,
} from '@explorer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The wallet endpoints against a real node's watch-only descriptor wallet (Litecoin Core 0.21, regtest): the
// explorer's answers for a tpub descriptor are what the node's wallet of the same descriptors reports — balance,
// unspent outputs, used addresses, transactions — before and after a reorg.

const unavailable = litecoindAvailable();
if (unavailable) console.log(`[wallets] litecoind tests skipped: ${unavailable}`);
const driver = testDrivers().at(-1)!;

// A test network's account key (rust-miniscript's descriptor tests); its private key is not known here.
const TPUB =
  'tpubDCvNhURocXGZsLNqWcqD3syHTqPXrMSTwi8feKVwAcpi29oYKsDD3Vex7x2TDneKMVN23RbLprfxB69v94iYqdaYHsVz3kPR37NQXeqouVz';
/** What the explorer is asked: receive and change in one multipath descriptor (BIP389), which 0.21 lacks. */
const KEY = encodeURIComponent(`wpkh(${TPUB}/<0;1>/*)`);

interface Unspent {
  txid: string;
  vout: number;
  address: string;
  amount: number;
}

const units = (coins: number) => String(Math.round(coins * 1e8));

describe.skipIf(unavailable !== null)(`a wallet from its descriptor against litecoind (${driver})`, () => {
  let node: Litecoind;
  let f: NodeFixture;
  /** Calls an RPC of the watch-only wallet. */
  let watch: <T>(method: string, ...params: unknown[]) => Promise<T>;
  /** The block holding the last payment, which the reorg takes away. */
  let last: string;

  /** The wallet's answers, each checked against the served OpenAPI document. */
  let read: ContractReader;

  beforeAll(async () => {
    node = await startLitecoind();
    await node.mine(101);
    const url = new URL(node.rpcUrl);
    const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    let id = 0;
    watch = async <T>(method: string, ...params: unknown[]) => {
      const res = await fetch(`http://${url.host}/wallet/watch`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
      });
      const reply = (await res.json()) as { result: T; error: { message: string } | null };
      if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
      return reply.result;
    };
    // A watch-only wallet of the same key: a descriptor wallet where the node has one (createwallet … true =
    // descriptors, importdescriptors); Debian's litecoind is built without SQLite, so there a legacy wallet
    // without private keys imports the same ranged descriptors with importmulti (keypool on, so it hands out
    // addresses as a descriptor wallet would).
    const descriptors = await Promise.all(
      [0, 1].map(async (branch) => {
        const info = await node.rpc<{ checksum: string }>('getdescriptorinfo', `wpkh(${TPUB}/${branch}/*)`);
        return `wpkh(${TPUB}/${branch}/*)#${info.checksum}`;
      }),
    );
    const request = (desc: string, branch: number) => ({ desc, internal: branch === 1, range: [0, 40] });
    try {
      // disable_private_keys, blank, no passphrase, avoid_reuse off, descriptors.
      await node.rpc('createwallet', 'watch', true, true, '', false, true);
      const imported = await watch<{ success: boolean }[]>(
        'importdescriptors',
        descriptors.map((d, b) => ({ ...request(d, b), timestamp: 'now', active: true })),
      );
      expect(imported.every((r) => r.success)).toBe(true);
    } catch (e) {
      if (!/without sqlite/i.test((e as Error).message)) throw e;
      await node.rpc('createwallet', 'watch', true, true, '', false, false);
      const imported = await watch<{ success: boolean }[]>(
        'importmulti',
        descriptors.map((d, b) => ({ ...request(d, b), timestamp: 'now', watchonly: true, keypool: true })),
      );
      expect(imported.every((r) => r.success)).toBe(true);
    }
    const derive = async (branch: number, index: number) => {
      const desc = descriptors[branch]!;
      return (await node.rpc<string[]>('deriveaddresses', desc, [index, index]))[0]!;
    };
    // Receive 0 twice, 1, 4 and 9 (holes inside the gap), change 0 and 3.
    for (const [branch, index, coins] of [
      [0, 0, 1.5],
      [0, 0, 0.25],
      [0, 1, 2],
      [0, 4, 0.75],
      [1, 0, 0.5],
      [0, 9, 1.25],
      [1, 3, 0.125],
    ] as const) {
      await node.send(await derive(branch, index), coins);
    }
    await node.mine(1);
    await node.send(await derive(0, 12), 0.3);
    last = (await node.mine(1))[0]!;
    f = await indexNode(driver, node.rpcUrl, { config: { responseCacheMs: 0 } });
    read = contractReader(f.get, createResponseValidator((await f.get('/v1/openapi.json')).body));
  }, 180_000);
  afterAll(async () => {
    await f?.close();
    await node?.stop();
  });

  /** The explorer's wallet against the node's watch-only wallet. */
  async function compare() {
    const { wallet } = await read.get(`/v1/wallet?key=${KEY}`, 'getWallet');
    const unspent = await watch<Unspent[]>('listunspent', 1);
    const at = (u: { txid: string; vout: number }) => `${u.txid}:${u.vout}`;
    const { items: utxos } = await read.all(`/v1/wallet/utxos?key=${KEY}`, 'listWalletUtxos', 'utxos', 3);
    expect(
      utxos
        .map((u) => ({ at: at(u), address: u.address, value: u.value }))
        .sort((a, b) => a.at.localeCompare(b.at)),
    ).toEqual(
      unspent
        .map((u) => ({ at: at(u), address: u.address, value: units(u.amount) }))
        .sort((a, b) => a.at.localeCompare(b.at)),
    );
    // A descriptor wallet counts its watch-only coins as `mine`, a legacy one as `watchonly`.
    const balances = await watch<{ mine: { trusted: number }; watchonly?: { trusted: number } }>(
      'getbalances',
    );
    expect(wallet.balance).toBe(units(balances.watchonly?.trusted ?? balances.mine.trusted));
    const received = await watch<{ address: string; amount: number }[]>(
      'listreceivedbyaddress',
      1,
      false,
      true,
    );
    // listreceivedbyaddress leaves change addresses out; nothing was spent, so the unspent outputs name them all.
    const used = new Set([...received.map((r) => r.address), ...unspent.map((u) => u.address)]);
    expect(wallet.used.map((a: any) => a.address).sort()).toEqual([...used].sort());
    for (const r of received)
      expect(wallet.used.find((a: any) => a.address === r.address).received).toBe(units(r.amount));
    const history = await watch<{ txid: string; confirmations: number }[]>(
      'listtransactions',
      '*',
      1000,
      0,
      true,
    );
    const txids = [...new Set(history.filter((t) => t.confirmations > 0).map((t) => t.txid))].sort();
    const { items: txs } = await read.all(`/v1/wallet/txs?key=${KEY}`, 'listWalletTxs', 'txs', 3);
    expect(txs.map((t) => t.txid).sort()).toEqual(txids);
    expect(wallet.txCount).toBe(txids.length);
    return wallet;
  }

  it('answers what the watch-only wallet of the same descriptors reports', async () => {
    const wallet = await compare();
    expect(wallet.used.map((a: any) => a.path)).toEqual(['0/0', '0/1', '0/4', '0/9', '0/12', '1/0', '1/3']);
    expect(wallet.used[0].txCount).toBe(2);
    expect(wallet.firstUnused.receive).toMatchObject({ index: 13, path: '0/13' });
    expect(wallet.firstUnused.change).toMatchObject({ index: 4, path: '1/4' });
    // The node's next receive address is the first unused one: it has seen the same addresses used.
    expect(wallet.firstUnused.receive.address).toBe(await watch<string>('getnewaddress', '', 'bech32'));
    expect(wallet.firstUnused.change.address).toBe(await watch<string>('getrawchangeaddress', 'bech32'));
  });

  it('follows a reorg that takes a payment away', async () => {
    const height = await node.rpc<number>('getblockcount');
    await node.rpc('invalidateblock', last);
    // Two blocks without the mempool's transactions: the payment to 0/12 goes back to unconfirmed.
    const to = await node.newAddress('bech32');
    await node.rpc('generateblock', to, []);
    await node.rpc('generateblock', to, []);
    expect(await node.rpc<number>('getblockcount')).toBe(height + 1);
    await f.sync();
    const wallet = await compare();
    expect(wallet.used.map((a: any) => a.path)).toEqual(['0/0', '0/1', '0/4', '0/9', '1/0', '1/3']);
    expect(wallet.firstUnused.receive).toMatchObject({ index: 10, path: '0/10' });
  });
});
