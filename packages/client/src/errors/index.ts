export { type ErrorBody, ExplorerApiError } from './api-error.js';
export { ExplorerError } from './explorer-error.js';
export { ExplorerNetworkError } from './network-error.js';
export { ExplorerPrivateKeyError } from './private-key-error.js';
export { ExplorerStreamClosedError } from './stream-closed-error.js';
export { ExplorerTimeoutError } from './timeout-error.js';
export { ExplorerValidationError } from './validation-error.js';
