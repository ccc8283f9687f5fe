import { openDatabase, type QueryObserver, type Sql } from '@explorer/db';
import type { ServerConfig } from '../config/index.js';

/**
 * Who opens the database, which decides its pool and name:
 * - `api`: the server's own (the API; in embedded mode every reader and writer), migrated first;
 * - `replica`: the read replica the API reads from (`DATABASE_READ_URL`), never migrated;
 * - `writer`: the indexer's and market refresher's pool beside the API's, without the API's statement timeout;
 * - `{ command }`: an operator command (`keys create`, `migrate` …), one connection at a time.
 */
export type DatabaseUse = 'api' | 'replica' | 'writer' | { command: string; migrate: boolean };

/** What the process adds to the configuration: the statement hook of its metrics. */
export interface OpenOptions {
  onQuery?: QueryObserver | undefined;
}

/**
 * Opens the configured database for one use: the one place that turns the settings (URL or data dir, pool,
 * timeouts, prepared statements) into `openDatabase`'s options, for the server and every command alike.
 * @example const sql = await openConfigured(config, { command: 'keys list', migrate: true })
 */
export function openConfigured(config: ServerConfig, use: DatabaseUse, opts: OpenOptions = {}): Promise<Sql> {
  const shared = {
    connectionTimeoutMs: config.dbConnectTimeoutMs,
    // PgBouncer in transaction mode needs them off, for every process that connects (DB_PREPARED_STATEMENTS).
    preparedStatements: config.dbPreparedStatements,
    onQuery: opts.onQuery,
  };
  if (typeof use === 'object')
    return openDatabase({
      ...shared,
      url: config.databaseUrl ?? undefined,
      dataDir: config.dataDir,
      applicationName: `explorer-server ${use.command}`,
      migrate: use.migrate,
    });
  switch (use) {
    case 'api':
      return openDatabase({
        ...shared,
        url: config.databaseUrl ?? undefined,
        dataDir: config.dataDir,
        poolSize: config.dbPoolSize,
        statementTimeoutMs: config.dbStatementTimeoutMs,
        applicationName: 'explorer-server',
        // The demo indexes a simulated chain: a storage upgrade rebuilds its index without asking.
        rebuild: !config.nodeRpcUrl && config.index,
      });
    case 'replica':
      return openDatabase({
        ...shared,
        url: config.databaseReadUrl!,
        poolSize: config.dbPoolSize,
        statementTimeoutMs: config.dbStatementTimeoutMs,
        applicationName: 'explorer-server',
        migrate: false,
      });
    case 'writer':
      return openDatabase({
        ...shared,
        url: config.databaseUrl!,
        // Two connections stay held by the writer locks (indexer, market refresher); the rest do the work.
        poolSize: 5,
        applicationName: 'explorer-indexer',
        migrate: false,
      });
  }
}
