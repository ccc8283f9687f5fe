export {
  type AdapterBody,
  type AdapterContext,
  type AdapterRoute,
  defineAdapterRoute,
  isAdapterRoute,
  type Protocol,
  protocolOf,
} from './adapter.js';
export { esploraBlock, esploraScriptType, esploraTx, feeHistogram } from './esplora/render.js';
export {
  ESPLORA_MEMPOOL_TXS,
  ESPLORA_PAGE,
  ESPLORA_UTXO_LIMIT,
  type EsploraOptions,
  esploraProtocol,
  esploraRoutes,
} from './esplora/routes.js';
