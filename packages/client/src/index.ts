export { createExplorerClient } from './client.js';
export {
  type ErrorBody,
  ExplorerApiError,
  ExplorerError,
  ExplorerNetworkError,
  ExplorerPrivateKeyError,
  ExplorerStreamClosedError,
  ExplorerTimeoutError,
  ExplorerValidationError,
} from './errors/index.js';
export type { EventSubscription, EventsReset, SubscribeOptions } from './events/index.js';
export type {
  AddressesApi,
  AnalyticsApi,
  BlocksApi,
  EventsApi,
  ExplorerClient,
  ListRequest,
  MarketApi,
  MinersApi,
  PoolsApi,
  RequestArgs,
  TxsApi,
  WalletApi,
} from './explorer-client.js';
export { type OperationInfo, operations } from './operations.js';
export {
  type AllOptions,
  PagedRequest,
  type PagedRequestOptions,
  type PageInfo,
  type PagesOptions,
} from './paginate.js';
export {
  buildUrl,
  createTransport,
  type ExplorerClientOptions,
  type RetryInfo,
  type RetryOptions,
  type Send,
} from './transport.js';
export type {
  BlockbookFeeEstimate,
  ChainEvent,
  EventData,
  EventTopic,
  HeightOrHash,
  InputOf,
  ItemOf,
  MemberOf,
  OpenApiDocument,
  OperationId,
  ParamsOf,
  QueryOf,
  RawOperationId,
  ResponseOf,
  ResultOf,
} from './types.js';
export { checkEnvelope, type ResponseValidator, type ValidationInput } from './validate.js';
