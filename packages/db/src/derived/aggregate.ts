import {
  bulkWrite,
  type ColumnTypes,
  columnOf,
  type PgType,
  type RowShape,
  rowShape,
} from '../queries/bulk.js';
import type { Sql } from '../sql.js';
import type { DerivedTable } from './table.js';

/**
 * How a batch's value of a column meets the stored one when its row already exists: `key` identifies the
 * row, `add` sums, `min`/`max` keep the extreme, `set` takes the batch's value, `keep` the stored one; a
 * function writes any other rule from the stored and the batch's column references.
 */
export type Merge =
  | 'key'
  | 'add'
  | 'min'
  | 'max'
  | 'set'
  | 'keep'
  | ((stored: string, batch: string) => string);

/** The ON CONFLICT clause that merges a batch's row into a stored one, column by column. */
export function onConflictMerge(table: string, merges: Readonly<Record<string, Merge>>): string {
  const keys: string[] = [];
  const sets: string[] = [];
  for (const [field, merge] of Object.entries(merges)) {
    const c = columnOf(field);
    const stored = `${table}.${c}`;
    const batch = `EXCLUDED.${c}`;
    if (merge === 'key') keys.push(c);
    else if (merge === 'add') sets.push(`${c} = ${stored} + ${batch}`);
    else if (merge === 'min') sets.push(`${c} = LEAST(${stored}, ${batch})`);
    else if (merge === 'max') sets.push(`${c} = GREATEST(${stored}, ${batch})`);
    else if (merge === 'set') sets.push(`${c} = ${batch}`);
    else if (typeof merge === 'function') sets.push(`${c} = ${merge(stored, batch)}`);
  }
  return `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sets.join(', ')}`;
}

/** A column written by upsert: its type and how a batch's value merges into the stored one. */
export interface MergedColumn {
  type: PgType;
  merge: Merge;
}

/** The columns of a table written by upsert, one per field of its row. */
export type MergedColumns<R, C extends MergedColumn = MergedColumn> = { readonly [F in keyof R]-?: C };

/** How rows are laid out for an upsert, and the ON CONFLICT clause that merges them. */
export function upsertOf<R>(
  table: string,
  columns: MergedColumns<R>,
): { shape: RowShape<R>; suffix: string } {
  const fields = Object.keys(columns) as (keyof R & string)[];
  return {
    shape: rowShape(Object.fromEntries(fields.map((f) => [f, columns[f].type])) as ColumnTypes<R>),
    suffix: onConflictMerge(table, Object.fromEntries(fields.map((f) => [f, columns[f].merge]))),
  };
}

/** One column of an aggregate: an upserted column whose value can also be recomputed from the base rows. */
export interface AggregateColumn extends MergedColumn {
  /** An expression over `source` (grouped for key columns, an aggregate for the others). */
  from: string;
}

/** What an aggregate table is: groups of base rows, summed up by ingest and recomputable from those rows. */
export interface AggregateSpec<K extends string, R> {
  /** The batch field holding its rows; also the name of its queries. */
  key: K;
  table: string;
  columns: MergedColumns<R, AggregateColumn>;
  /** The base rows it aggregates, and the expression of their block height. */
  source: { from: string; where?: string; height: string };
  /**
   * How a reorg takes removed blocks out. `subtract` (one key column, the others add, min or max): sums are
   * decremented, extremes recomputed for the touched rows, and a row whose named count column falls to zero
   * goes; cheap when a group spans the whole chain. `rebuild`: the groups of the named key column that the
   * removed blocks touched are recomputed from their base rows; for groups that stay small (a day).
   */
  rollback: { subtract: keyof R & string } | { rebuild: keyof R & string };
  /** The name of its invariant: the stored rows equal their recomputation. */
  check: string;
}

/** An aggregate table's description, plus a rebuild of it from its base rows. */
export interface AggregateTable<K extends string, R>
  extends DerivedTable<Record<K, readonly R[]>, unknown[]> {
  /** Recomputes the table (or only the groups whose key column `only.field` is among `only.values`). */
  rebuild(tx: Sql, only?: { field: keyof R & string; values: readonly unknown[] }): Promise<void>;
}

/** `WHERE a AND b …` of the conditions given, or nothing when there are none. */
function whereOf(...conditions: (string | undefined)[]): string {
  const c = conditions.filter((w) => w !== undefined);
  return c.length > 0 ? `WHERE ${c.join(' AND ')}` : '';
}

/**
 * A table of totals per group (per miner, per pool, per day …): ingest upserts a batch's totals with each
 * column's merge, and its invariant, its rebuild and its rollback all follow from the same columns'
 * recomputation over the base rows.
 */
export function aggregateTable<K extends string, R>(spec: AggregateSpec<K, R>): AggregateTable<K, R> {
  const { table, columns, source } = spec;
  const fields = Object.keys(columns) as (keyof R & string)[];
  const keys = fields.filter((f) => columns[f].merge === 'key');
  const names = fields.map(columnOf).join(', ');
  const { shape, suffix } = upsertOf(table, columns);
  const recompute = (filter?: string) =>
    `SELECT ${fields.map((f) => columns[f].from).join(', ')} FROM ${source.from} ${whereOf(source.where, filter)}
     GROUP BY ${keys.map((f) => columns[f].from).join(', ')}`;
  const stored = `SELECT ${names} FROM ${table}`;

  async function rebuild(tx: Sql, only?: { field: keyof R & string; values: readonly unknown[] }) {
    if (!only) {
      await tx.query(`DELETE FROM ${table}`, [], `rebuild.${spec.key}.clear`);
      await tx.query(`INSERT INTO ${table} (${names}) ${recompute()}`, [], `rebuild.${spec.key}`);
      return;
    }
    const c = columns[only.field];
    const param = `$1::${c.type}[]`;
    const p = [only.values];
    await tx.query(
      `DELETE FROM ${table} WHERE ${columnOf(only.field)} = ANY(${param})`,
      p,
      `rebuild.${spec.key}.clear-some`,
    );
    await tx.query(
      `INSERT INTO ${table} (${names}) ${recompute(`${c.from} = ANY(${param})`)}`,
      p,
      `rebuild.${spec.key}.some`,
    );
  }

  const q = async (tx: Sql, step: string, text: string, params: unknown[]) =>
    (await tx.query<{ v: unknown }>(text, params, `rollback.${spec.key}.${step}`)).map((r) => r.v);
  const removed = `${source.height} > $1`;
  let rollback: AggregateTable<K, R>['rollback'];
  if ('rebuild' in spec.rollback) {
    const by = spec.rollback.rebuild;
    rollback = {
      undo: (tx, forkHeight) =>
        q(
          tx,
          'touched',
          `SELECT DISTINCT ${columns[by].from} AS v FROM ${source.from} ${whereOf(source.where, removed)}`,
          [forkHeight],
        ),
      async settle(tx, _forkHeight, touched) {
        if (touched.length > 0) await rebuild(tx, { field: by, values: touched });
      },
    };
  } else {
    const count = columnOf(spec.rollback.subtract);
    const [key] = keys;
    if (key === undefined || keys.length !== 1)
      throw new Error(`${table}: a subtracted aggregate has one key column`);
    const k = columnOf(key);
    const param = `$1::${columns[key].type}[]`;
    const sums = fields.filter((f) => columns[f].merge === 'add').map(columnOf);
    const extremes = fields.filter((f) => columns[f].merge === 'min' || columns[f].merge === 'max');
    rollback = {
      undo: (tx, forkHeight) =>
        q(
          tx,
          'subtract',
          `UPDATE ${table} t SET ${sums.map((c) => `${c} = t.${c} - d.${c}`).join(', ')}
           FROM (${recompute(removed)}) AS d(${names})
           WHERE t.${k} = d.${k} RETURNING t.${k} AS v`,
          [forkHeight],
        ),
      async settle(tx, _forkHeight, touched) {
        if (touched.length === 0) return;
        await q(tx, 'drop-empty', `DELETE FROM ${table} WHERE ${k} = ANY(${param}) AND ${count} <= 0`, [
          touched,
        ]);
        if (extremes.length === 0) return;
        await q(
          tx,
          'extremes',
          `UPDATE ${table} t SET (${extremes.map(columnOf).join(', ')}) = (
             SELECT ${extremes.map((f) => columns[f].from).join(', ')} FROM ${source.from}
             ${whereOf(source.where, `${columns[key].from} = t.${k}`)})
           WHERE t.${k} = ANY(${param})`,
          [touched],
        );
      },
    };
  }

  return {
    name: spec.key,
    dump: { table, order: keys.map(columnOf).join(', ') },
    write: (tx, batch) => bulkWrite(tx, `ingest.${spec.key}`, table, shape, batch[spec.key], suffix),
    rollback,
    checks: [
      {
        name: spec.check,
        sql: `(${recompute()} EXCEPT ${stored}) UNION ALL (${stored} EXCEPT ${recompute()}) LIMIT 5`,
      },
    ],
    rebuild,
  };
}
