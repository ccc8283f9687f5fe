export * from './chains/index.js';
export {
  createIndexer,
  formatSeconds,
  INDEXER_DEFAULTS,
  INDEXER_STATES,
  type Indexer,
  type IndexerEventOptions,
  IndexerLockedError,
  type IndexerObserver,
  type IndexerOptions,
  type IndexerState,
  type IndexerStatus,
  progressLine,
  ReorgTooDeepError,
  WrongChainError,
} from './indexer.js';
export { applyBlocks } from './ingest/apply.js';
export { classifyTx, dayOf, type TxType } from './ingest/classify.js';
export { ChainMismatchError, MalformedBlockError, MissingPrevoutError } from './ingest/errors.js';
export {
  type CertificateConfig,
  outputAddress,
  type ParsedBlock,
  type ParsedCertificate,
  type ParsedInput,
  type ParsedOutput,
  type ParsedTx,
  parseBlock,
  toBaseUnits,
} from './ingest/parse.js';
export * from './market/index.js';
export {
  createMempoolWatcher,
  MAX_EVENT_TXIDS,
  MEMPOOL_WATCHER_DEFAULTS,
  type MempoolReading,
  type MempoolWatcher,
  type MempoolWatcherOptions,
  type MempoolWatcherStatus,
} from './mempool-watcher.js';
export {
  createNodeClient,
  type NodeClient,
  type NodeClientOptions,
  type NodeConnection,
  NodeRpcError,
  NodeUnavailableError,
  type RpcCall,
} from './node-client.js';
export { type CookieLocation, findCookieFile, NodeCookieError, readCookie } from './node-cookie.js';
export {
  coinbaseTag,
  createDefinitions,
  type Definitions,
  type DefinitionsInput,
  type KnownLabel,
  loadDefinitions,
  type PoolDefinition,
  parseLabels,
  parsePools,
  slugify,
  UNKNOWN_POOL,
} from './pools.js';
export { defaultReaderThreads } from './sync/block-reader.js';
