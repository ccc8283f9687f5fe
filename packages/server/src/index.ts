/** @explorer/server */
export { type Access, createAccess } from './access.js';
export { type CommandContext, processContext } from './commands/context.js';
export {
  ConfigError,
  type ConfigFlags,
  loadConfig,
  publicBaseUrl,
  SETTINGS,
  type ServerConfig,
  type Setting,
} from './config/index.js';
export { unknownVariables } from './config/unknown.js';
export { HEAP_CAP_MB, heapSizeGiven } from './heap-cap.js';
export { type ApiHandler, createServerApp, type ServerAppDeps } from './http/app.js';
export { clientAddress } from './http/client-address.js';
export { attachClientErrorHandler } from './http/client-errors.js';
export { createLogger, LOG_LEVELS, type LoggerOptions, type LogLevel, type LogStream } from './logger.js';
export {
  createMetrics,
  type MetricSources,
  type Metrics,
  type MetricsAddress,
  type MetricsListener,
  type MetricsOptions,
  type RequestFacts,
  serveMetrics,
  UNMATCHED_ROUTE,
} from './metrics/index.js';
export { acceptsGzip, type CompressionOptions, compression } from './middleware/compression.js';
export { apiAnswered, type HttpMetricsSink, httpMetrics } from './middleware/http-metrics.js';
export { type RateLimitHeadersOptions, rateLimitHeaders } from './middleware/rate-limit-headers.js';
export { type RequestBoundsOptions, requestBounds } from './middleware/request-bounds.js';
export { loggablePath, type RequestLogOptions, requestLog } from './middleware/request-log.js';
export { timing } from './middleware/timing.js';
export { createNodeAdapter, type NodeAdapter, type NodeAdapterOptions } from './node-adapter.js';
export { createProgram } from './program.js';
export {
  connectRateLimitRedis,
  createRateLimiter,
  type RateLimiterOptions,
  type RateLimitRedis,
  type ServerRateLimiter,
} from './rate-limit/index.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime/index.js';
export { SERVER_VERSION } from './version.js';
export {
  createWebhookWorker,
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type SignatureCheck,
  signWebhookPayload,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
  type WebhookAttemptOutcome,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from './webhooks/index.js';
