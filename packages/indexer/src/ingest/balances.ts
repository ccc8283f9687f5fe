import { type AddressTotalsRow, newAddressIds, readAccounts, type Sql } from '@explorer/db';

/** An address as a batch sees it: its dictionary id and its balance (before the batch, then after). */
export interface Account {
  id: number;
  balance: bigint;
}

/** An address in the writer's cache, and the batch that last changed it. */
export interface CachedBalance extends Account {
  seq: number;
}

/**
 * Step 2 of a batch: the id and balance of each address it touches before the batch, from the cache or else
 * the database; an address the index has not seen gets a new id (and a zero balance), in order of first touch.
 * History rows carry running balances, which start from these.
 */
export async function balancesBefore(
  reader: Sql,
  cache: ReadonlyMap<string, CachedBalance>,
  addresses: Iterable<string | null>,
): Promise<Map<string, Account>> {
  const accounts = new Map<string, Account>();
  const unknown = new Set<string>();
  for (const a of addresses) {
    if (!a || accounts.has(a) || unknown.has(a)) continue;
    const c = cache.get(a);
    if (c) accounts.set(a, { id: c.id, balance: c.balance });
    else unknown.add(a);
  }
  if (unknown.size > 0) {
    const stored = await readAccounts(reader, [...unknown]);
    const fresh = [...unknown].filter((a) => !stored.has(a));
    const ids = await newAddressIds(reader, fresh.length);
    fresh.forEach((a, k) => {
      stored.set(a, { id: ids[k]!, balance: 0n });
    });
    for (const a of unknown) accounts.set(a, stored.get(a)!);
  }
  return accounts;
}

/** Caches the ids and balances a batch leaves its addresses with, as of batch `seq`. */
export function rememberBalances(
  cache: Map<string, CachedBalance>,
  totals: readonly AddressTotalsRow[],
  after: ReadonlyMap<string, Account>,
  seq: number,
): void {
  for (const t of totals) {
    const a = after.get(t.address)!;
    const c = cache.get(t.address);
    // Re-inserted, so the map's order stays the order of last use that eviction goes by.
    cache.delete(t.address);
    if (c) {
      c.balance = a.balance;
      c.seq = seq;
      cache.set(t.address, c);
    } else cache.set(t.address, { id: a.id, balance: a.balance, seq });
  }
}
