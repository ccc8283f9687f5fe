import {
  type DerivedAddress,
  deriveAddresses,
  MAX_DERIVE_COUNT,
  parseWalletKey,
  type WalletScript,
} from '@explorer/chain';
import { bitcoinDialect, type Dialect, pearlDialect } from './chain/dialect.js';
import { type KeyKind, KeyRing } from './chain/keys.js';
import { BlockMaker } from './chain/miner.js';
import { type KnownLabel, MinerSet, makeAttributor, type PoolDefinition } from './chain/pools.js';
import { Rng } from './chain/rng.js';
import { ChainState, type StoredBlock, type TxEntry } from './chain/state.js';
import { Wallet, type WalletConfig } from './chain/wallet.js';
import type { DevnetOptions } from './options.js';

/** Largest number of txs put in one block (tx positions are packed in 16 bits). */
const MAX_BLOCK_TXS = 60_000;

/** Receive and change addresses of the `hdWallet` option that get paid by default, in this order. */
export const HD_WALLET_RECEIVE = 10;
export const HD_WALLET_CHANGE = 5;

const HD_KEY_KINDS: Record<WalletScript, KeyKind> = {
  tr: 'p2tr',
  wpkh: 'p2wpkh',
  'sh-wpkh': 'p2sh-p2wpkh',
  pkh: 'p2pkh',
};

/** The simulated node: chain state plus the wallet and miner that extend it. */
export class DevnetNode {
  readonly state: ChainState;
  readonly keys: KeyRing;
  readonly wallet: Wallet;
  readonly maker: BlockMaker;
  readonly miners: MinerSet;
  readonly labels: KnownLabel[];
  readonly busyAddresses: string[];
  readonly rng: Rng;
  readonly dialect: Dialect;
  /** Unix time to stamp new mempool entries with; undefined = derive from the tip (deterministic). */
  liveClock: (() => number) | undefined;
  /** The `hdWallet` option's addresses that get paid, in order (receive, then change); empty without one. */
  readonly hdAddresses: DerivedAddress[] = [];
  private readonly hdKeys: number[] = [];
  private hdPaid = 0;

  constructor(readonly options: Required<DevnetOptions>) {
    const seed = String(options.seed);
    const root = new Rng(seed);
    this.rng = root.fork('node');
    this.dialect = options.dialect === 'pearl' ? pearlDialect : bitcoinDialect(options.halvingInterval);
    const dialect = this.dialect;
    this.keys = new KeyRing(seed, dialect);
    this.miners = new MinerSet(this.keys, dialect);
    const busyIds = Array.from({ length: options.busyAddresses }, (_, i) =>
      this.keys.special(i % 2 === 0 ? 'p2wpkh' : 'p2pkh'),
    );
    const faucetId = this.keys.special('p2wpkh');
    const serviceIds = [this.keys.special('p2tr'), this.keys.special('p2sh-p2wpkh')];
    const burnScripts = dialect.burnScripts();
    const cfg: WalletConfig = { busyIds, faucetId, serviceIds, burnScripts };
    const addr = (id: number) => dialect.address(this.keys.info(id).script) as string;
    this.busyAddresses = busyIds.map(addr);
    this.labels = [
      ...this.busyAddresses.map(
        (a, i): KnownLabel => ({
          address: a,
          label: `Exchange ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? i : ''} hot wallet`,
          kind: 'exchange',
        }),
      ),
      ...burnScripts.map(
        (s, i): KnownLabel => ({
          address: dialect.address(s) as string,
          label: `Burn address ${i + 1}`,
          kind: 'burn',
        }),
      ),
      { address: addr(faucetId), label: 'Devnet faucet', kind: 'faucet' },
      { address: addr(serviceIds[0] as number), label: 'Payment processor', kind: 'service' },
      { address: addr(serviceIds[1] as number), label: 'Custody service', kind: 'service' },
      ...this.miners.labels,
    ];
    this.state = new ChainState(Wallet.poolCount(cfg), options.coinbaseMaturity);
    this.wallet = new Wallet(this.state, this.keys, root.fork('wallet'), cfg, options.txPerBlock, dialect);
    this.maker = new BlockMaker(
      this.state,
      this.keys,
      root.fork('miner'),
      {
        genesisTime: options.genesisTime,
        targetSpacing: options.targetSpacing,
        retargetInterval: options.retargetInterval,
        proofSize: options.proofSize,
        forks: options.certificateForks,
        seed,
      },
      this.miners,
      this.wallet,
      makeAttributor(this.miners.definitions),
      dialect,
    );
    // Allocated last and only when asked for, so that a devnet without one keeps every key id and draw it had.
    if (options.hdWallet !== null) {
      const key = parseWalletKey(options.hdWallet, dialect.walletChain);
      const [receive, change] = options.hdWalletAddresses;
      // Derived in runs the library allows per call.
      const derive = (branch: number, count: number) => {
        const out: DerivedAddress[] = [];
        for (let from = 0; from < count; from += MAX_DERIVE_COUNT)
          out.push(
            ...deriveAddresses(key, { branch, from, count: Math.min(MAX_DERIVE_COUNT, count - from) }),
          );
        return out;
      };
      this.hdAddresses.push(...derive(0, receive), ...(key.branchCount === 2 ? derive(1, change) : []));
      for (const a of this.hdAddresses) {
        const script = Buffer.from(a.scriptPubKey, 'hex');
        this.hdKeys.push(this.keys.fixed(HD_KEY_KINDS[key.script], script, Buffer.from(a.publicKey, 'hex')));
      }
    }
  }

  /** Pool definitions written to the pools file. */
  get pools(): PoolDefinition[] {
    return this.miners.definitions;
  }

  /** Mines genesis plus the configured number of blocks. */
  build(): void {
    this.mineBlock();
    for (let i = 0; i < this.options.blocks; i++) this.mineBlock();
  }

  private now(): number {
    return this.liveClock?.() ?? this.state.tip()?.time ?? this.options.genesisTime;
  }

  /** How many txs the next block should carry: around txPerBlock, sometimes empty or crowded. */
  blockTarget(): number {
    const t = this.options.txPerBlock;
    if (t <= 0 || this.state.height < 0) return 0;
    const r = this.rng.float();
    if (r < 0.03) return 0;
    if (r < 0.06) return Math.min(MAX_BLOCK_TXS, Math.round(t * 2.5));
    return Math.min(MAX_BLOCK_TXS, Math.round(t * (0.3 + 1.4 * this.rng.float())));
  }

  /** Generates up to n new mempool txs, paying `feeRate` base units per vbyte when given. */
  addTxs(n: number, feeRate?: number): TxEntry[] {
    const out: TxEntry[] = [];
    for (let i = 0; i < n; i++) {
      const e = this.wallet.makeTx(this.now(), feeRate);
      if (!e) break;
      out.push(e);
    }
    return out;
  }

  /** Keeps the mempool near its target size. */
  topUp(): void {
    const want = Math.round(this.options.mempoolSize * (0.8 + 0.4 * this.rng.float()));
    if (this.state.height >= 0) this.addTxs(want - this.state.mempool.length);
  }

  /** Mines one block from the oldest mempool txs (generating more if needed), then refills the mempool. */
  mineBlock(time?: number): StoredBlock {
    this.payHdWallet();
    const target = this.blockTarget();
    const mempool = this.state.mempool;
    if (mempool.length < target) this.addTxs(target - mempool.length);
    const block = this.maker.mine(mempool.slice(0, Math.min(target, mempool.length)), { time });
    this.topUp();
    return block;
  }

  /** Pays the next unpaid address of the HD wallet, once the general pool has coins to spend. */
  private payHdWallet(): void {
    const key = this.hdKeys[this.hdPaid];
    if (key === undefined || this.state.height < 0) return;
    if (this.wallet.payKey(key, this.now())) this.hdPaid++;
  }

  /** Mines a block from a chosen set of mempool entries, pulling in their unconfirmed ancestors. */
  mineSelected(chosen: Set<TxEntry>, time?: number): StoredBlock {
    const index = this.state.mempoolIndex;
    const stack = [...chosen];
    while (stack.length > 0) {
      const e = stack.pop() as TxEntry;
      for (const c of e.spent) {
        const parent = index.get(c.txid);
        if (parent && !chosen.has(parent)) {
          chosen.add(parent);
          stack.push(parent);
        }
      }
    }
    return this.maker.mine(
      this.state.mempool.filter((e) => chosen.has(e)),
      { time },
    );
  }
}
