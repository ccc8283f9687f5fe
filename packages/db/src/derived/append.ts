import { bulkWrite, type ColumnTypes, rowShape } from '../queries/bulk.js';
import type { Check, DerivedTable } from './table.js';

/** What an append-only table is: rows written once per block, gone with their block. */
export interface AppendSpec<K extends string, R> {
  /** The batch field holding its rows; also the name of its queries. */
  key: K;
  table: string;
  columns: ColumnTypes<R>;
  /** The condition on the table's rows that selects those of blocks above the fork height `$1`. */
  above: string;
  /** The columns that order a canonical dump (its key). */
  order: string;
  /** What a canonical dump reads instead of the table's own rows (numbers assigned in write order resolved). */
  dumpQuery?: string;
  checks?: readonly Check[];
}

/**
 * A table whose rows a block adds and nothing else changes (blocks, transactions, inputs, outputs, history):
 * written with COPY, and a reorg deletes the rows above the fork.
 */
export function appendTable<K extends string, R>(
  spec: AppendSpec<K, R>,
): DerivedTable<Record<K, readonly R[]>> {
  const shape = rowShape(spec.columns);
  return {
    name: spec.key,
    dump: { table: spec.table, order: spec.order, query: spec.dumpQuery },
    write: (tx, batch) => bulkWrite(tx, `ingest.${spec.key}`, spec.table, shape, batch[spec.key]),
    rollback: {
      async remove(tx, forkHeight) {
        await tx.query(`DELETE FROM ${spec.table} WHERE ${spec.above}`, [forkHeight], `rollback.${spec.key}`);
      },
    },
    checks: spec.checks ?? [],
  };
}
