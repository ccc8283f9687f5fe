import type { Dialect } from './dialect.js';
import type { KeyKind, KeyRing } from './keys.js';
import type { Rng } from './rng.js';

/** A mining pool as written to the pools definitions file (mempool.space pools-v2 shape plus slug). */
export interface PoolDefinition {
  id: number;
  slug: string;
  name: string;
  addresses: string[];
  /** Regex sources, matched case-insensitively against the coinbase scriptSig decoded as latin1. */
  tags: string[];
  link: string;
}

/** An address label as written to the labels definitions file. */
export interface KnownLabel {
  address: string;
  label: string;
  kind: 'exchange' | 'burn' | 'service' | 'pool' | 'faucet';
}

interface PoolProfile {
  slug: string;
  name: string;
  tag: string;
  regexes: string[];
  kinds: KeyKind[];
  share: number;
  /** Pays each block to a fresh address, so only its tag identifies it. */
  freshPayout?: boolean;
  /** Left out of the definitions file: its blocks attribute to 'unknown'. */
  undisclosed?: boolean;
}

const PROFILES: PoolProfile[] = [
  {
    slug: 'foundryusa',
    name: 'Foundry USA',
    tag: '/Foundry USA Pool #dropgold/',
    regexes: ['Foundry USA'],
    kinds: ['p2wpkh', 'p2pkh'],
    share: 26,
  },
  {
    slug: 'antpool',
    name: 'AntPool',
    tag: '/AntPool/',
    regexes: ['AntPool', 'Mined by AntPool'],
    kinds: ['p2pkh'],
    share: 18,
  },
  {
    slug: 'viabtc',
    name: 'ViaBTC',
    tag: '/ViaBTC/Mined by devnet/',
    regexes: ['ViaBTC', 'viabtc\\.com'],
    kinds: ['p2pkh'],
    share: 12,
  },
  {
    slug: 'f2pool',
    name: 'F2Pool',
    tag: '/F2Pool/',
    regexes: ['F2Pool', '七彩神仙鱼'],
    kinds: ['p2wpkh', 'p2tr'],
    share: 10,
  },
  {
    slug: 'binancepool',
    name: 'Binance Pool',
    tag: '/Binance/',
    regexes: ['binance'],
    kinds: ['p2sh-p2wpkh'],
    share: 8,
  },
  {
    slug: 'marapool',
    name: 'MARA Pool',
    tag: '/MARA Pool/',
    regexes: ['MARA Pool'],
    kinds: ['p2wpkh'],
    share: 7,
    freshPayout: true,
  },
  { slug: 'luxor', name: 'Luxor', tag: '/LUXOR/', regexes: ['Luxor'], kinds: ['p2tr'], share: 5 },
  {
    slug: 'spiderpool',
    name: 'SpiderPool',
    tag: '/SpiderPool/',
    regexes: ['SpiderPool'],
    kinds: ['p2wsh'],
    share: 4,
  },
  {
    slug: 'shadowpool',
    name: 'Shadow Pool',
    tag: '/Shad0w-M1ner/',
    regexes: [],
    kinds: ['p2wpkh'],
    share: 6,
    undisclosed: true,
  },
];
const SOLO_SHARE = 4;

/** A pool (or a solo miner when profile is undefined) ready to mine: payout key ids and coinbase tag. */
export interface Miner {
  slug?: string;
  tag: string;
  payoutIds: number[];
  freshPayout: boolean;
}

/** The simulated mining landscape: who mines, with which tags and payouts, and the labelled addresses. */
export class MinerSet {
  readonly miners: Miner[];
  readonly shares: number[];
  readonly definitions: PoolDefinition[];
  readonly labels: KnownLabel[] = [];

  constructor(keys: KeyRing, dialect: Dialect) {
    this.miners = PROFILES.map((p) => ({
      slug: p.slug,
      tag: p.tag,
      payoutIds: p.freshPayout ? [] : p.kinds.map((k) => keys.special(k)),
      freshPayout: p.freshPayout === true,
    }));
    this.shares = [...PROFILES.map((p) => p.share), SOLO_SHARE];
    this.definitions = [];
    PROFILES.forEach((p, i) => {
      const m = this.miners[i] as Miner;
      const addresses = m.payoutIds.map((id) => dialect.address(keys.info(id).script) as string);
      if (p.undisclosed) return;
      this.definitions.push({
        id: this.definitions.length + 1,
        slug: p.slug,
        name: p.name,
        addresses,
        tags: p.regexes,
        link: `https://${p.slug}.devnet.invalid`,
      });
      for (const a of addresses) this.labels.push({ address: a, label: `${p.name} payout`, kind: 'pool' });
    });
  }

  /** Draws the miner of the next block by hash share; index === miners.length means a solo miner. */
  draw(rng: Rng): Miner | undefined {
    const i = rng.weighted(this.shares);
    return this.miners[i];
  }
}

/** Builds the attribution rule (mempool.space's): payout address on any coinbase output, then tag regex, else 'unknown'. */
export function makeAttributor(
  definitions: PoolDefinition[],
): (coinbaseAddresses: string[], coinbaseScriptSig: Uint8Array) => string {
  const byAddress = new Map<string, string>();
  for (const d of definitions) for (const a of d.addresses) if (!byAddress.has(a)) byAddress.set(a, d.slug);
  const tags = definitions.flatMap((d) => d.tags.map((t) => ({ re: new RegExp(t, 'i'), slug: d.slug })));
  return (coinbaseAddresses, scriptSig) => {
    for (const a of coinbaseAddresses) {
      const slug = byAddress.get(a);
      if (slug) return slug;
    }
    const text = Buffer.from(scriptSig).toString('latin1');
    for (const t of tags) if (t.re.test(text)) return t.slug;
    return 'unknown';
  };
}
