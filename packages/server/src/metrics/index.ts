export { type MetricsAddress, type MetricsListener, serveMetrics } from './listener.js';
export {
  createMetrics,
  type MetricSources,
  type Metrics,
  type MetricsOptions,
  type RequestFacts,
  UNMATCHED_ROUTE,
} from './metrics.js';
