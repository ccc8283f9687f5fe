export * from './access/index.js';
export * from './adapters/index.js';
export {
  type AnswerFacts,
  type ApiAnswer,
  type ApiDeps,
  type Authenticator,
  createExplorerApi,
  defaultApiConfig,
  type EventAdmission,
  type ExplorerApi,
  type HandleOptions,
  type HeaderRecord,
  refuseRequest,
  requestIdOf,
  toResponse,
} from './api/index.js';
export {
  type Kept,
  type Shared,
  SharedCache,
  type SharedCacheOptions,
  type SharedLoadOptions,
} from './cache/index.js';
export { type Deadline, deadline } from './deadline.js';
export {
  ErrorEnvelopeSchema,
  errorEnvelope,
  type Meta,
  MetaSchema,
  type Pagination,
  PaginationSchema,
  successEnvelope,
} from './envelope.js';
export {
  ApiError,
  BadRequestError,
  INTERNAL_ERROR_MESSAGE,
  MethodNotAllowedError,
  NotConfiguredError,
  NotFoundError,
  PayloadTooLargeError,
  QueryTimeoutError,
  RateLimitedError,
  ServiceUnavailableError,
  toApiError,
  UnauthorizedError,
} from './errors.js';
export {
  DEFAULT_EVENT_LIMITS,
  type EventCloseCode,
  type EventFeed,
  type EventFeedHealth,
  type EventLimits,
  type EventSink,
  type EventSubscriptionHandle,
  type SubscribeRequest,
  subscriberBucket,
} from './events/feed.js';
export { eventStream, sseFrame } from './events/sse.js';
export {
  DEFAULT_TOPICS,
  eventFor,
  parseSubscription,
  type Subscription,
} from './events/subscription.js';
export * from './fees/index.js';
export { createHandlers, type HandlerInput, type HandlerOutput, type Handlers } from './handlers.js';
export { type Logger, silentLogger } from './logger.js';
export type { ChainNode, NodeProbe } from './node.js';
export { buildOpenApiDocument, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
export { type CursorKey, decodeCursor, encodeCursor, INVALID_CURSOR } from './pagination/cursor.js';
export {
  type AnyCursorKey,
  type CursorKeyDef,
  cursorKey,
  type KeyColumnType,
  type KeyField,
  type KeyOf,
  type KeyValues,
  type PageOf,
} from './pagination/cursor-key.js';
export {
  addressFlowsKey,
  addressMempoolKey,
  addressTxsKey,
  addressUtxosKey,
  blockOutputsKey,
  blocksKey,
  blockTxsKey,
  multiAddressTxsKey,
  multiAddressUtxosKey,
  poolPayoutsKey,
  topMinersKey,
  txInputsKey,
  txOutputsKey,
  txOutspendsKey,
  txsKey,
} from './pagination/keys.js';
export {
  defineList,
  type ListContext,
  type ListDefinition,
  type ListQuery,
  type ListShape,
  type RowOf,
} from './pagination/list-route.js';
export { MAX_OFFSET, type PageRequest, pageQuery, pageRequest, toPage } from './pagination/params.js';
export { guardedKey, guardedPageRequest } from './pagination/reorg-guard.js';
export {
  type AnyRoute,
  type ApiConfig,
  defineRoute,
  type Identity,
  type RateLimitState,
  type RouteContext,
  type RouteDefinition,
  type RouteResult,
  TAGS,
  type Tag,
} from './route.js';
export { ADDRESS_LIST_LIMITS, addressListCost, addressListLimit } from './routes/address-lists.js';
export { currentFees } from './routes/fees.js';
export type { OperationId, RouteOf, V1Route } from './routes/index.js';
export { v1Routes } from './routes/index.js';
export { DEFAULT_CHART_DAYS, MARKET_NOT_CONFIGURED } from './routes/market.js';
export {
  type MempoolEntry,
  mempoolEntries,
  nodeMinFeeRate,
  summarizeMempool,
} from './routes/mempool.js';
export { walletCost } from './routes/wallets.js';
export * from './schemas/address.js';
export * from './schemas/analytics.js';
export * from './schemas/block.js';
export * from './schemas/chain.js';
export * from './schemas/common.js';
export * from './schemas/events.js';
export * from './schemas/market.js';
export * from './schemas/mining.js';
export * from './schemas/search.js';
export * from './schemas/status.js';
export * from './schemas/tx.js';
export * from './schemas/wallet.js';
export type * from './store.js';
export type * from './store-market.js';
export { MARKET_CHART_DAYS } from './store-market.js';
export type * from './store-search.js';
export { deriveInThread, type WalletDeriveJob, type WalletDeriver } from './wallet/deriver.js';
export { WALLET_GAP, WALLET_MAX_DERIVED } from './wallet/limits.js';
