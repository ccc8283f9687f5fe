import { fromDisplayHex, type Tx, type TxInput, txSizes } from '@explorer/chain';
import type { Dialect } from './dialect.js';
import { makeEntry, type PlannedOutput } from './entry.js';
import { type KeyRing, unlock } from './keys.js';
import type { Rng } from './rng.js';
import { nullData } from './script.js';
import type { ChainState, Coin, TxEntry } from './state.js';

/** Smallest non-OP_RETURN output the wallets create (Core's P2PKH dust threshold). */
export const DUST = 546;

/** Special keys and scripts the simulated users interact with. */
export interface WalletConfig {
  busyIds: number[];
  faucetId: number;
  serviceIds: number[];
  burnScripts: Buffer[];
}

type Kind =
  | 'payment'
  | 'deposit'
  | 'withdrawal'
  | 'consolidation'
  | 'fanout'
  | 'refill'
  | 'opreturn'
  | 'burn'
  | 'burnaddr'
  | 'nonstandard';
const KINDS: Kind[] = [
  'payment',
  'deposit',
  'withdrawal',
  'consolidation',
  'fanout',
  'refill',
  'opreturn',
  'burn',
  'burnaddr',
  'nonstandard',
];
const BASE_WEIGHTS = [34, 16, 16, 5, 4, 2, 12, 1.2, 1.8, 0.6];
const NONSTANDARD_SCRIPTS = [
  Buffer.from([0x52, 0x53, 0x93, 0x55, 0x87]),
  Buffer.from([0x51]),
  Buffer.from([0x75, 0x51]),
];
const MESSAGES = ['dvt:hello', 'dvt:timestamp', 'devnet memo', 'proof-of-existence', 'gm', 'anchor:'];

/** The simulated users: picks coins and builds realistic-looking spends into the mempool. */
export class Wallet {
  private readonly poolOfKey = new Map<number, number>();
  private recent: Coin[] = [];
  private readonly targetPool: number;

  constructor(
    private readonly state: ChainState,
    private readonly keys: KeyRing,
    private readonly rng: Rng,
    private readonly cfg: WalletConfig,
    txPerBlock: number,
    private readonly dialect: Dialect,
  ) {
    cfg.busyIds.forEach((id, i) => {
      this.poolOfKey.set(id, i + 1);
    });
    this.poolOfKey.set(cfg.faucetId, cfg.busyIds.length + 1);
    this.targetPool = Math.max(400, txPerBlock * 60);
  }

  /** Number of coin pools the chain state must hold. */
  static poolCount(cfg: WalletConfig): number {
    return cfg.busyIds.length + 2;
  }

  /** Pool index for coins paid to a key. */
  poolOf(key: number): number {
    return this.poolOfKey.get(key) ?? 0;
  }

  /** True for outputs paying a labelled burn address. */
  isBurn = (s: Buffer): boolean => this.cfg.burnScripts.some((b) => b.equals(s));

  /**
   * Builds one new tx and accepts it into the mempool; undefined when no suitable coins exist. With `feeRate`
   * (base units per vbyte) its fee is ⌈feeRate × vsize⌉, plus any change too small to keep; else a random rate.
   */
  makeTx(time: number, feeRate?: number): TxEntry | undefined {
    const w = [...BASE_WEIGHTS];
    // Pearl's consensus accepts no nonstandard outputs.
    if (!this.dialect.nonstandardOutputs) w[KINDS.indexOf('nonstandard')] = 0;
    const general = (this.state.pools[0] as Coin[]).length;
    if (general > this.targetPool * 2) w[3] = (w[3] as number) * 6;
    if (general < this.targetPool / 2) {
      w[3] = 0;
      w[4] = (w[4] as number) * 3;
    }
    for (let attempt = 0; attempt < 4; attempt++) {
      const kind = KINDS[this.rng.weighted(w)] as Kind;
      const e = this.build(kind, time, feeRate);
      if (e) return e;
    }
    return undefined;
  }

  /**
   * Builds one payment to `key` (an address of the devnet's HD wallet) from the general pool and accepts it into
   * the mempool; undefined when no suitable coins exist.
   */
  payKey(key: number, time: number): TxEntry | undefined {
    return this.build('payment', time, undefined, key);
  }

  private build(kind: Kind, time: number, feeRate?: number, to?: number): TxEntry | undefined {
    const rng = this.rng;
    const busyIndex = rng.weighted(this.cfg.busyIds.map((_, i) => 1 / (i + 1)));
    const busyId = this.cfg.busyIds[busyIndex];
    const faucetPool = this.cfg.busyIds.length + 1;
    let inputs: Coin[] = [];
    const outs: PlannedOutput[] = [];
    let changeKey: number | undefined;
    const take = (pool: number, n: number): boolean => {
      for (let i = 0; i < n; i++) {
        const c = this.pick(pool);
        if (c) inputs.push(c);
      }
      return inputs.length > 0;
    };
    const firstInputs = (n: number): boolean => {
      if (rng.chance(0.12) && this.recent.length > 0) {
        const c = this.recent[rng.int(this.recent.length)] as Coin;
        if (c.slot >= 0 && c.pool === 0 && this.state.spendable(c)) {
          this.state.poolRemove(c);
          inputs.push(c);
          n--;
        }
      }
      take(0, n);
      return inputs.length > 0;
    };
    const nIn = () => [1, 1, 1, 1, 2, 2, 3, rng.range(3, 6)][rng.int(8)] as number;
    switch (kind) {
      case 'payment':
      case 'opreturn':
      case 'burn':
      case 'burnaddr':
      case 'nonstandard':
      case 'deposit':
      case 'refill': {
        if (!firstInputs(nIn())) return undefined;
        if (to !== undefined) outs.push(this.pay(to));
        else {
          const payees = kind === 'payment' ? [1, 1, 1, 2, 3][rng.int(5)] : 1;
          for (let i = 0; i < (payees as number); i++) outs.push(this.pay(this.payee()));
        }
        if (kind === 'deposit' && busyId !== undefined) outs[0] = this.pay(busyId);
        if (kind === 'refill') outs[0] = this.pay(this.cfg.faucetId);
        if (kind === 'burnaddr') outs[0] = { value: 0, script: rng.pick(this.cfg.burnScripts) };
        if (kind === 'opreturn') outs.push({ value: 0, script: nullData(this.message()) });
        if (kind === 'burn')
          outs.push({ value: 0, script: nullData(Buffer.from(`burn:${rng.u32().toString(16)}`)) });
        if (kind === 'nonstandard')
          outs.push({ value: rng.range(1000, 20_000), script: rng.pick(NONSTANDARD_SCRIPTS) });
        changeKey = this.keys.fresh();
        break;
      }
      case 'withdrawal': {
        if (busyId === undefined || !take(busyIndex + 1, rng.range(1, 2)))
          return this.build('deposit', time, feeRate);
        const payees = rng.range(1, 4);
        for (let i = 0; i < payees; i++) outs.push(this.pay(this.payee()));
        changeKey = busyId;
        break;
      }
      case 'consolidation': {
        const fromBusy = busyId !== undefined && rng.chance(0.3);
        if (!take(fromBusy ? busyIndex + 1 : 0, rng.range(5, 40))) return undefined;
        outs.push(this.pay(fromBusy && busyId !== undefined ? busyId : this.keys.fresh()));
        break;
      }
      case 'fanout': {
        // Pool payouts: a freshly matured coinbase fanned out to many miners.
        const matured = this.state.matured.filter((c) => c.slot >= 0 && this.state.spendable(c));
        const payout = matured.length > 0 && rng.chance(0.6) ? rng.pick(matured) : undefined;
        if (payout) {
          this.state.poolRemove(payout);
          inputs.push(payout);
        }
        const fromFaucet = !payout && rng.chance(0.6) && take(faucetPool, 1);
        if (!payout && !fromFaucet && !take(0, 1)) return undefined;
        const n = rng.range(10, 60);
        for (let i = 0; i < n; i++) outs.push(this.pay(this.keys.fresh()));
        changeKey = fromFaucet ? this.cfg.faucetId : this.keys.fresh();
        break;
      }
    }
    const e = this.finish(inputs, outs, changeKey, kind, time, feeRate);
    if (!e) {
      for (const c of inputs) this.state.poolReturn(c);
      inputs = [];
    }
    return e;
  }

  private pick(pool: number): Coin | undefined {
    const arr = this.state.pools[pool] as Coin[];
    for (let a = 0; a < 6 && arr.length > 0; a++) {
      const c = arr[this.rng.int(arr.length)] as Coin;
      if (!this.state.spendable(c)) continue;
      this.state.poolRemove(c);
      return c;
    }
    return undefined;
  }

  private payee(): number {
    const r = this.rng.float();
    if (r < 0.12 && this.keys.count > 50) return this.rng.int(this.keys.count);
    if (r < 0.15) return this.rng.pick(this.cfg.serviceIds);
    return this.keys.fresh();
  }

  private pay(key: number): PlannedOutput {
    return { value: 0, script: this.keys.info(key).script, key, pool: this.poolOf(key) };
  }

  private message(): Buffer {
    if (this.rng.chance(0.5)) return this.rng.bytes(this.rng.range(20, 80));
    return Buffer.from(`${this.rng.pick(MESSAGES)}${this.rng.u32().toString(36)}`, 'latin1');
  }

  private feeRate(): number {
    const r = this.rng.float();
    if (r < 0.5) return 1 + this.rng.float() * 4;
    if (r < 0.9) return 5 + this.rng.float() * 25;
    return 30 + this.rng.float() * 170;
  }

  // Amounts are decided after inputs, so payments are fractions of what the inputs hold.
  private finish(
    inputs: Coin[],
    outs: PlannedOutput[],
    changeKey: number | undefined,
    kind: Kind,
    time: number,
    feeRate?: number,
  ): TxEntry | undefined {
    const rng = this.rng;
    const height = this.state.height;
    const antiSnipe = rng.chance(0.3);
    const txIns: TxInput[] = inputs.map((c) => {
      const u = unlock(this.keys.info(c.key), rng);
      return {
        prevTxid: fromDisplayHex(c.txid),
        vout: c.vout,
        scriptSig: u.scriptSig,
        sequence: antiSnipe ? 0xfffffffe : 0xffffffff,
        witness: u.witness,
      };
    });
    let inValue = 0;
    for (const c of inputs) inValue += c.value;
    const change: PlannedOutput | undefined =
      changeKey === undefined ? undefined : { ...this.pay(changeKey), value: 0 };
    const all = change ? [...outs, change] : outs;
    const tx: Tx = {
      version: rng.chance(0.9) ? 2 : 1,
      inputs: txIns,
      outputs: all.map((o) => ({ value: BigInt(o.value), script: o.script })),
      locktime: antiSnipe ? Math.max(0, height) : 0,
    };
    // The random draw happens either way, so choosing a rate does not change what the chain does afterwards.
    const drawn = this.feeRate();
    const rate = feeRate ?? drawn;
    const fee0 = Math.ceil(rate * txSizes(tx).vsize);
    const avail = inValue - fee0;
    const payable = outs.filter((o) => o.script[0] !== 0x6a && (o.key !== undefined || kind === 'burnaddr'));
    const fixed = outs.filter((o) => o.script[0] !== 0x6a && !payable.includes(o));
    let fixedSum = 0;
    for (const o of fixed) fixedSum += o.value;
    if (kind === 'burn') {
      const ret = outs[outs.length - 1] as PlannedOutput;
      ret.value = Math.floor((avail - fixedSum) * (0.001 + rng.float() * 0.05));
      fixedSum += ret.value;
    }
    const spendable = avail - fixedSum - (change ? DUST : 0);
    if (spendable < DUST * Math.max(1, payable.length)) return undefined;
    const share = change ? 0.05 + rng.float() * 0.85 : 1;
    let budget = Math.floor(spendable * share);
    payable.forEach((o, i) => {
      const last = i === payable.length - 1;
      const v = last ? budget : Math.floor(budget * (0.2 + rng.float() * 0.6));
      o.value = Math.max(DUST, v);
      budget -= o.value;
    });
    let paid = 0;
    for (const o of outs) paid += o.value;
    if (paid + fee0 > inValue) return undefined;
    if (change) {
      change.value = inValue - paid - fee0;
      if (change.value < DUST) all.pop();
    }
    tx.outputs = all.map((o) => ({ value: BigInt(o.value), script: o.script }));
    let outSum = 0;
    for (const o of all) outSum += o.value;
    const fee = inValue - outSum;
    const e = makeEntry(tx, inputs, all, { fee, time, height, coinbase: false, isBurn: this.isBurn });
    this.state.apply(e, -1);
    this.state.pushMempool(e);
    this.recent.push(...e.created.filter((c) => c.pool === 0).slice(0, 4));
    if (this.recent.length > 64) this.recent = this.recent.slice(-32);
    return e;
  }
}
