import { bulkWrite, type ColumnTypes, rowShape } from '../queries/bulk.js';
import type { Check, DerivedTable } from './table.js';

/** What an append-only table is: rows written once per block, gone with their block. */
export interface AppendSpec<K extends string, R> {
  /** The batch field holding its rows; also the name of its queries. */
  key: K;
  table: string;
  columns: ColumnTypes<R>;
  /** The column holding the height of the row's block. */
  height: string;
  /** The columns that order a canonical dump (its key). */
  order: string;
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
    dump: { table: spec.table, order: spec.order },
    write: (tx, batch) => bulkWrite(tx, `ingest.${spec.key}`, spec.table, shape, batch[spec.key]),
    rollback: {
      async remove(tx, forkHeight) {
        await tx.query(
          `DELETE FROM ${spec.table} WHERE ${spec.height} > $1`,
          [forkHeight],
          `rollback.${spec.key}`,
        );
      },
    },
    checks: spec.checks ?? [],
  };
}
