export { type BackoffOptions, retryDelayMs } from './backoff.js';
export { type PostResult, postDelivery } from './deliver.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type SignatureCheck,
  signWebhookPayload,
  type VerifyWebhookOptions,
  verifyWebhookSignature,
} from './signature.js';
export {
  createWebhookWorker,
  type WebhookAttemptOutcome,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from './worker.js';
