export * from './derived/index.js';
export {
  type DirectoryLock,
  DirectoryLockedError,
  type DirectoryLockHolder,
  dataDirInUse,
  directoryLockHolder,
  lockDirectory,
} from './dir-lock.js';
export { DISK_FULL, DiskFullError } from './drivers/disk-space.js';
export { createPgSql, PG_POOL_DEFAULTS, type PgOptions } from './drivers/pg.js';
export { createPgliteSql, DEFAULT_RESERVE_BYTES, type PgliteOptions } from './drivers/pglite.js';
export { chainIdentity } from './mappers.js';
export {
  INDEX_REBUILD,
  type IndexedChain,
  type MigrateOptions,
  type MigrateResult,
  type MigrationPlan,
  migrate,
  pendingMigrations,
  RebuildRequiredError,
} from './migrate.js';
export { type Migration, migrations } from './migrations/index.js';
export { observeSql, type QueryObserver, UNNAMED_QUERY } from './observe.js';
export { type DatabaseConfig, openDatabase } from './open.js';
export { type BulkColumn, bulkInsert } from './queries/bulk.js';
export { canonicalDump, checkInvariants, type InvariantViolation } from './queries/checks.js';
export {
  type AppendOptions,
  appendEvents,
  blockEventDrafts,
  DEFAULT_EVENT_RETENTION,
  eventLogBounds,
  lastReorgAddedHeight,
  readEventsAfter,
} from './queries/events.js';
export * from './queries/ingest.js';
export * from './queries/keys.js';
export * from './queries/market.js';
export {
  type MempoolState,
  readMempoolState,
  recentBlockFloors,
  writeMempoolState,
} from './queries/mempool-state.js';
export {
  clearMempoolAddressTxs,
  deleteMempoolAddressTxs,
  deleteMinedMempoolAddressTxs,
  insertMempoolAddressTxs,
  lockTipShared,
  type MempoolAddressTxRow,
  readReorgCount,
} from './queries/mempool-txs.js';
export {
  type BlockRef,
  REORG_EVENT_BLOCKS,
  type RollbackOptions,
  type RollbackResult,
  rollbackTo,
} from './queries/rollback.js';
export * from './queries/state.js';
export {
  type AttemptOutcome,
  type ClaimedDelivery,
  type CreatedWebhook,
  claimDueDeliveries,
  countPendingDeliveries,
  type DeliveryListing,
  type DeliveryStatus,
  generateWebhookSecret,
  insertWebhook,
  isWebhookId,
  listWebhookDeliveries,
  listWebhooks,
  MAX_WEBHOOK_ADDRESSES,
  parseWebhookInput,
  REMOVED_WEBHOOK_ERROR,
  recordDeliveryAttempt,
  removeWebhook,
  type WebhookInput,
  type WebhookListing,
} from './queries/webhooks.js';
export {
  type AdvisoryLock,
  amountText,
  DatabaseError,
  type Int8,
  type PoolStats,
  parseInt8,
  type Row,
  type Sql,
  toDatabaseError,
} from './sql.js';
export { createSqlStore, feeRate } from './store.js';
export { marketStoreMethods } from './store-market.js';
export { createSearchStore } from './store-search.js';
export { TXS_PER_BLOCK, txNo } from './tx-no.js';
