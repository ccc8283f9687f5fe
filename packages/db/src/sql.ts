/** A row as the drivers return it: int8 → number, numeric → string, bytea → Uint8Array, json → parsed value. */
export type Row = Record<string, unknown>;

/** The one database interface every package writes SQL through; both drivers implement it. */
export interface Sql {
  /** Which driver serves this connection. */
  readonly driver: 'pg' | 'pglite';
  /**
   * Runs one statement. `name` labels it in logs and errors (every query in `queries/` carries one).
   * @example const rows = await sql.query<{ height: number }>('SELECT height FROM blocks LIMIT 1', [], 'blocks.any')
   */
  query<T = Row>(text: string, params?: readonly unknown[], name?: string): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string, name?: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Nested calls join the outer one. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Takes a session-level advisory lock on a connection of its own and keeps it until released; null when
   * another session holds it. This is what stops a second indexer from writing.
   */
  tryAdvisoryLock(key: number): Promise<AdvisoryLock | null>;
  /** Releases the connections (or closes the embedded database). */
  close(): Promise<void>;
  /**
   * The pool's connections now: open ones, idle ones, and callers waiting for one (node-postgres); absent
   * where there is no pool (PGlite runs one statement at a time in this process).
   */
  poolStats?(): PoolStats;
  /**
   * The embedded database's data directory as a tarball (PGlite only), which another in-memory database
   * starts from (`openDatabase({ dataDir: 'memory://', snapshot })`) without running initdb and migrations.
   */
  snapshot?(): Promise<Blob>;
  /**
   * Appends rows to a table with `COPY … FROM STDIN`, where the driver supports it (node-postgres); values
   * are strings, numbers, booleans, null or Uint8Array, in `columns` order. Bulk inserts use it when present.
   */
  copyRows?(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
    name?: string,
  ): Promise<void>;
}

/** A connection pool's state at one moment. */
export interface PoolStats {
  /** Connections open (in use and idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection: queued beyond what the idle connections are about to serve. */
  waiting: number;
}

/** A held advisory lock. */
export interface AdvisoryLock {
  release(): Promise<void>;
  /**
   * False once the connection holding the lock was lost (the server ended it, the network dropped): the
   * server released the lock with it, so the holder must stop writing and take the lock again.
   */
  held(): boolean;
  /**
   * Asks the database, inside `tx`, whether the lock is still held: a write transaction calls it last, so
   * that it commits only while the lock is (a dropped connection can go unnoticed by held() for a while).
   */
  confirm(tx: Sql): Promise<boolean>;
}

/** A database failure translated at the boundary: carries the query name and the server's SQLSTATE. */
export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly queryName: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /**
   * True when the failure means the database could not be reached or would not take the connection (no code:
   * the network; 08: connection exceptions; 57P: shut down, starting or dropped; 53300: too many connections;
   * 3D000: no such database; 55000: a database not accepting connections — no statement of ours meets it
   * otherwise), rather than a bad statement. Codes only: server messages may be in any language.
   */
  get unavailable(): boolean {
    const c = this.code;
    return (
      c === undefined || c.startsWith('08') || c.startsWith('57P') || ['53300', '3D000', '55000'].includes(c)
    );
  }

  /**
   * True when the database has no room to write: SQLSTATE 53100, `disk_full` (PostgreSQL could not extend a
   * file, or the embedded database's guard refused the write), or a new connection that PostgreSQL ended
   * because it could not write its relation-cache init file (see {@link isInitFileFailure}). Reads on open
   * connections still work; writing resumes once there is room.
   */
  get diskFull(): boolean {
    return this.code === '53100' || (this.code === 'XX000' && isInitFileFailure(this.cause));
  }

  /** True when the statement was cancelled by the statement timeout. */
  get timedOut(): boolean {
    return this.code === '57014';
  }
}

/**
 * PostgreSQL's FATAL `could not write init file` (SQLSTATE XX000): a new backend rebuilds the relation-cache
 * init file (after a checkpoint or a schema change removed it) before it takes the connection, and ends the
 * connection when that write fails, on a full disk before any statement runs. The text is an untranslated
 * internal message (elog), so it reads the same in every locale.
 */
function isInitFileFailure(err: unknown): boolean {
  return (err as { message?: unknown } | undefined)?.message === 'could not write init file';
}

/** Wraps any driver error as a DatabaseError naming the query. */
export function toDatabaseError(err: unknown, queryName: string | undefined): DatabaseError {
  if (err instanceof DatabaseError) return err;
  const e = err as { message?: string; code?: string };
  const code = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  const label = queryName ? `${queryName}: ` : '';
  // PostgreSQL names the file it could not extend, relative to a data directory this process may not see.
  if (code === '53100' || (code === 'XX000' && isInitFileFailure(err)))
    return new DatabaseError(
      `out of disk space: the database server could not write (${label}${e?.message}); nothing more is written until its disk has room (free some, or grow it), and writing resumes by itself then`,
      code,
      queryName,
      { cause: err },
    );
  return new DatabaseError(`${label}${e?.message ?? String(err)}`, code, queryName, { cause: err });
}

/**
 * An int8 as the drivers return it: a number while it is a safe integer, an exact bigint past 2^53 (amounts of
 * Pearl's supply get there). Row fields that can grow that large are typed Int8, so arithmetic on them must say
 * how (BigInt), and output goes through `String()`.
 */
export type Int8 = number | bigint;

/** Parses an int8 value: a number when it is a safe integer, else an exact bigint. */
export function parseInt8(value: string | number | bigint): Int8 {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : BigInt(value);
}

/** An int8 amount (or a numeric sum) as the API's decimal string. */
export function amountText(value: Int8 | string | null | undefined): string {
  if (value === null || value === undefined) return '0';
  return typeof value === 'string' ? BigInt(value).toString() : String(value);
}
