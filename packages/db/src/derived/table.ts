import type { Sql } from '../sql.js';

/** An invariant of the index: a query returning a few offending rows, none when it holds. */
export interface Check {
  name: string;
  sql: string;
}

/**
 * How a table forgets the blocks above a fork point. The phases run across all tables in turn: every `undo`
 * while the removed blocks' rows are all still stored, then every `remove`, then every `settle` once they
 * are gone; so a table can read what another is about to lose, and recompute from what remains.
 */
export interface Rollback<Undone = unknown> {
  /** Takes the removed blocks' part out where it can be subtracted; returns what `settle` needs. */
  undo?(tx: Sql, forkHeight: number): Promise<Undone>;
  /** Deletes the table's rows of the removed blocks. */
  remove?(tx: Sql, forkHeight: number): Promise<void>;
  /** Recomputes what cannot be subtracted (minima, maxima, rows left empty) from the rows that remain. */
  settle?(tx: Sql, forkHeight: number, undone: Undone): Promise<void>;
}

/**
 * One table the index derives from the chain, described once: how ingest writes a prepared batch's rows
 * (`In` is the part of the batch it reads), how a reorg takes them out, and the invariants that prove it
 * right. Ingest, rollback, the invariant check and the canonical dump all iterate these descriptions.
 */
export interface DerivedTable<In, Undone = unknown> {
  /** Names the table's queries in logs and metrics. */
  name: string;
  /**
   * The table a canonical dump reads, ordered by its key; absent where another description dumps it. `query`
   * reads it instead of `SELECT *` where its rows hold numbers that depend on the order they were written in
   * (address ids), so the dump names what they stand for.
   */
  dump?: { table: string; order: string; query?: string };
  /** Writes a batch's rows, in the writing transaction. */
  write(tx: Sql, batch: In): Promise<void>;
  rollback: Rollback<Undone>;
  checks: readonly Check[];
}
