import type { Sql } from './sql.js';

/**
 * Told of every statement run through an observed Sql, once it ended (failed ones too): its query name
 * (`unnamed` for a statement without one) and how long it took, in seconds.
 */
export type QueryObserver = (name: string, seconds: number) => void;

/** The name statements without one are reported under. */
export const UNNAMED_QUERY = 'unnamed';

/**
 * A Sql that tells `observe` how long each statement took, by query name: the one place queries are timed,
 * whichever driver serves them, inside transactions too. The names are the query modules' own, so the set of
 * names is bounded by the code.
 * @example const sql = observeSql(await openDatabase(), (name, s) => histogram.observe({ query: name }, s))
 */
export function observeSql(sql: Sql, observe: QueryObserver): Sql {
  const timed = async <T>(name: string | undefined, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      observe(name ?? UNNAMED_QUERY, (performance.now() - started) / 1000);
    }
  };
  const wrapped: Sql = {
    ...sql,
    query: (text, params, name) => timed(name, () => sql.query(text, params, name)),
    exec: (script, name) => timed(name, () => sql.exec(script, name)),
    transaction: (fn) => sql.transaction((tx) => fn(tx === sql ? wrapped : observeSql(tx, observe))),
  };
  if (sql.copyRows) {
    const copy = sql.copyRows.bind(sql);
    wrapped.copyRows = (table, columns, rows, name) => timed(name, () => copy(table, columns, rows, name));
  }
  return wrapped;
}
