/** @explorer/testing: the workspace's test harness (private; tests read it from source). */
export { CHROMIUM_ARGS, chromiumPath } from './chromium.js';
export {
  type Answer,
  apiGetter,
  type ContractReader,
  contractReader,
  type Getter,
} from './contract-reader.js';
export {
  openTestDatabase,
  pgSkipReason,
  scratchDatabase,
  seedDataDir,
  type TestDatabase,
  testDrivers,
} from './database.js';
export {
  blockEvents,
  type EventStreamConnection,
  type EventStreamServer,
  serveEventStream,
} from './event-stream.js';
export { failingStore } from './failing-store.js';
export {
  type FakeMarketMode,
  type FakeMarketProvider,
  type FakeMarketRequest,
  startFakeMarketProvider,
} from './fake-market-provider.js';
export { collectGarbage } from './gc.js';
export { type DataDirHolder, holdDataDir } from './hold-data-dir.js';
export { freePorts, getJson, listen, serveFetch, type TestServer } from './http.js';
export {
  COINBASE_MATURITY,
  type Litecoind,
  type LitecoindOptions,
  litecoindAvailable,
  MWEB_ACTIVATION_HEIGHT,
  RpcError,
  startLitecoind,
} from './litecoind.js';
export { closeObjects, createResponseValidator, type ResponseValidator } from './openapi-validator.js';
export {
  type PostgresCluster,
  postgresClusterSkipReason,
  startPrimary,
  startReplica,
} from './postgres-cluster.js';
export {
  ProcessExitedError,
  type Started,
  type StartOptions,
  startProcess,
  stopProcess,
  TEST_SERVER_SETTINGS,
} from './processes.js';
export {
  mountSmallFilesystem,
  type SmallFilesystem,
  smallFilesystemSkipReason,
} from './small-filesystem.js';
export { seedV1Index } from './v1-index.js';
export { waitFor } from './wait.js';
