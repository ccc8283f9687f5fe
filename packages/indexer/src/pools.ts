import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { LabelRow, PoolRow } from '@explorer/db';

/** A mining pool as the definitions file describes it (mempool.space's shape; `regexes` is read as `tags`). */
export type PoolDefinition = PoolRow;

/** A labelled address: an exchange, a burn address, a pool's payout address… */
export type KnownLabel = LabelRow;

/** The pool id of blocks no definition matches. */
export const UNKNOWN_POOL = 'unknown';

/** Makes a URL-safe pool id from a pool name when the file gives no slug. */
export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'pool'
  );
}

function asStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Reads a pools file's JSON: an array, or `{ pools: [...] }`; entries without a name are skipped. */
export function parsePools(json: unknown): PoolDefinition[] {
  const list = Array.isArray(json) ? json : ((json as { pools?: unknown })?.pools ?? []);
  if (!Array.isArray(list)) return [];
  const out: PoolDefinition[] = [];
  const seen = new Set<string>([UNKNOWN_POOL]);
  for (const e of list as Record<string, unknown>[]) {
    if (!e || typeof e.name !== 'string' || !e.name.trim()) continue;
    const id = typeof e.slug === 'string' && e.slug ? e.slug : slugify(e.name);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      id,
      sourceId: typeof e.id === 'number' ? e.id : null,
      name: e.name,
      link: typeof e.link === 'string' ? e.link : null,
      tags: asStrings(e.tags ?? e.regexes),
      addresses: asStrings(e.addresses),
    });
  }
  return out;
}

/** Reads a known-labels file's JSON: an array of `{ address, label, kind?, poolId? }`. */
export function parseLabels(json: unknown): KnownLabel[] {
  const list = Array.isArray(json) ? json : ((json as { labels?: unknown })?.labels ?? []);
  if (!Array.isArray(list)) return [];
  return (list as Record<string, unknown>[])
    .filter((e) => e && typeof e.address === 'string' && typeof e.label === 'string')
    .map((e) => ({
      address: e.address as string,
      label: e.label as string,
      kind: typeof e.kind === 'string' ? e.kind : 'service',
      poolId: typeof e.poolId === 'string' ? e.poolId : null,
    }));
}

/**
 * Pool and label definitions handed to the indexer. A kind given replaces the one stored with the index (and
 * is recorded with where it came from); a kind left out keeps the stored one. `Definitions` fits: both kinds.
 */
export interface DefinitionsInput {
  pools?: readonly PoolDefinition[];
  labels?: readonly KnownLabel[];
  /** What each given kind was read from (a file path), recorded with it. */
  sources?: { pools?: string; labels?: string };
}

/**
 * Reads the definition files that are named; a kind without a file is left out, so the indexer keeps the
 * definitions of that kind stored with the index.
 * @example const given = await loadDefinitions({ poolsFile: 'pools.json' }) // labels: the stored ones
 */
export async function loadDefinitions(files: {
  poolsFile?: string | null;
  labelsFile?: string | null;
}): Promise<DefinitionsInput> {
  const read = async (p: string) => JSON.parse(await readFile(p, 'utf8'));
  const out: DefinitionsInput & { sources: { pools?: string; labels?: string } } = { sources: {} };
  if (files.poolsFile) {
    out.pools = parsePools(await read(files.poolsFile));
    out.sources.pools = files.poolsFile;
  }
  if (files.labelsFile) {
    out.labels = parseLabels(await read(files.labelsFile));
    out.sources.labels = files.labelsFile;
  }
  return out;
}

/** Pools and labels, with the attribution rule over them. */
export interface Definitions {
  pools: PoolDefinition[];
  labels: KnownLabel[];
  /** A stable digest: it changes exactly when attribution could change. */
  hash: string;
  /** The pool of a block, from its coinbase scriptSig hex and the addresses its coinbase pays. */
  attribute(coinbaseHex: string, payoutAddresses: readonly string[]): string;
  /** The label of an address, if known. */
  label(address: string): KnownLabel | undefined;
  /** True for addresses labelled as provably unspendable (kind `burn`). */
  isBurn(address: string): boolean;
}

function compileTag(tag: string): RegExp {
  try {
    return new RegExp(tag, 'i');
  } catch {
    return new RegExp(tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  }
}

/** Builds the attribution rule: exact payout-address match first, then tag regex on the coinbase text, else unknown. */
export function createDefinitions(pools: PoolDefinition[], labels: KnownLabel[]): Definitions {
  const byAddress = new Map<string, string>();
  for (const p of pools) for (const a of p.addresses) if (!byAddress.has(a)) byAddress.set(a, p.id);
  const tagRules = pools.flatMap((p) => p.tags.map((t) => ({ id: p.id, re: compileTag(t) })));
  const labelMap = new Map(labels.map((l) => [l.address, l]));
  const hash = createHash('sha256')
    .update(
      JSON.stringify({
        pools,
        burn: labels
          .filter((l) => l.kind === 'burn')
          .map((l) => l.address)
          .sort(),
      }),
    )
    .digest('hex');
  return {
    pools,
    labels,
    hash,
    attribute(coinbaseHex, payoutAddresses) {
      for (const a of payoutAddresses) {
        const id = byAddress.get(a);
        if (id) return id;
      }
      if (tagRules.length > 0) {
        const text = Buffer.from(coinbaseHex, 'hex').toString('latin1');
        for (const r of tagRules) if (r.re.test(text)) return r.id;
      }
      return UNKNOWN_POOL;
    },
    label: (address) => labelMap.get(address),
    isBurn: (address) => labelMap.get(address)?.kind === 'burn',
  };
}

/**
 * The readable part of a coinbase scriptSig: the BIP34 height push is skipped and runs of at least four
 * printable characters are kept, so "/ViaBTC/Mined by x/" survives and extranonce noise does not.
 */
export function coinbaseTag(coinbaseHex: string): string {
  const bytes = Buffer.from(coinbaseHex, 'hex');
  let start = 0;
  const first = bytes[0];
  if (first !== undefined && first >= 1 && first <= 8 && bytes.length > first) start = first + 1;
  const text = bytes.subarray(start).toString('latin1');
  const runs = text.match(/[\x20-\x7e]{4,}/g) ?? [];
  return runs
    .map((r) => r.trim())
    .filter(Boolean)
    .join(' ')
    .slice(0, 200);
}
