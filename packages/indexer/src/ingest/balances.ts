import { type AddressTotalsRow, readBalances, type Sql } from '@explorer/db';

/** An address balance in the writer's cache, and the batch that last changed it. */
export interface CachedBalance {
  balance: bigint;
  seq: number;
}

/**
 * Step 2 of a batch: the balance of each address it touches before the batch, from the cache or else the
 * database (absent addresses are new: zero). History rows carry running balances, which start from these.
 */
export async function balancesBefore(
  reader: Sql,
  cache: ReadonlyMap<string, CachedBalance>,
  addresses: Iterable<string | null>,
): Promise<Map<string, bigint>> {
  const balances = new Map<string, bigint>();
  const unknown = new Set<string>();
  for (const a of addresses) {
    if (!a || balances.has(a) || unknown.has(a)) continue;
    const c = cache.get(a);
    if (c) balances.set(a, c.balance);
    else unknown.add(a);
  }
  if (unknown.size > 0) {
    const stored = await readBalances(reader, [...unknown]);
    for (const a of unknown) balances.set(a, stored.get(a) ?? 0n);
  }
  return balances;
}

/** Caches the balances a batch leaves its addresses with, as of batch `seq`. */
export function rememberBalances(
  cache: Map<string, CachedBalance>,
  totals: readonly AddressTotalsRow[],
  after: ReadonlyMap<string, bigint>,
  seq: number,
): void {
  for (const t of totals) {
    // Re-inserted, so the map's order stays the order of last use that eviction goes by.
    cache.delete(t.address);
    cache.set(t.address, { balance: after.get(t.address)!, seq });
  }
}
