import type { ChainEvent } from '@explorer/client';
import { formatCoins, formatTime, shortHash } from './output.js';

/** An amount as the tables show it: coins with 8 decimals, or the integer base units. */
const amount = (units: string, baseUnits: boolean) => (baseUnits ? units : formatCoins(units));

/** A signed amount (`+1.5`, `-0.2`), for what moved. */
const signed = (units: string, baseUnits: boolean) =>
  units.startsWith('-') ? amount(units, baseUnits) : `+${amount(units, baseUnits)}`;

const rate = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * How `explorer watch` shows one event on a terminal: one line, or one line per address of an address event.
 * @example eventLines(blockEvent, false) // ['block 1234  00000000…9a3f21c4  12 txs  pool Foo  2026-01-01T00:20:00Z']
 */
export function eventLines(event: ChainEvent, baseUnits: boolean): string[] {
  switch (event.type) {
    case 'block': {
      const b = event.data;
      return [
        `block ${b.height}  ${shortHash(b.hash)}  ${plural(b.txCount, 'tx')}  pool ${b.pool.name}  ${formatTime(b.time)}`,
      ];
    }
    case 'reorg': {
      const r = event.data;
      const removed = r.removed.map((b) => b.height);
      const span = removed.length > 0 ? ` (${removed[0]}–${removed[removed.length - 1]})` : '';
      return [
        `reorg at ${r.forkHeight}${r.forkHash ? ` ${shortHash(r.forkHash)}` : ''}  ${plural(removed.length, 'block')} removed${span}  ${r.added.length} added`,
      ];
    }
    case 'mempool': {
      const m = event.data;
      const f = m.fees;
      return [
        `mempool +${m.addedCount} -${m.removedCount}  ${plural(m.count, 'tx')}  ${m.vsize} vB  fee rate next ${rate(f.nextBlock)}  30m ${rate(f.halfHour)}  1h ${rate(f.hour)}  economy ${rate(f.economy)}`,
      ];
    }
    case 'address': {
      const d = event.data;
      const where = d.confirmed ? `block ${d.height}` : 'mempool';
      return d.activity.map((a) => {
        const moved = `received ${amount(a.received, baseUnits)}  sent ${amount(a.sent, baseUnits)}`;
        const pending = a.mempoolDelta === null ? '' : `  pending ${signed(a.mempoolDelta, baseUnits)}`;
        return `address ${a.address}  ${where}  ${plural(a.txids.length, 'tx')}  ${moved}  balance ${amount(a.balance, baseUnits)}${pending}`;
      });
    }
    default:
      // A kind this version does not know yet: still one line, so nothing is silently lost.
      return [`${(event as { type: string }).type} ${JSON.stringify((event as { data: unknown }).data)}`];
  }
}
