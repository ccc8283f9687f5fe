/** What a probe of the chain node found. */
export interface NodeProbe {
  reachable: boolean;
  height: number | null;
  latencyMs: number | null;
  error: string | null;
}

/**
 * The chain node as the API sees it: a cached height that never blocks a request, a bounded probe for
 * /v1/status, and calls for the few live endpoints (mempool, network figures).
 */
export interface ChainNode {
  /** The last height the node reported, or null when it was never reached. Never waits. */
  lastHeight(): number | null;
  /** Asks the node now, within a short timeout. */
  probe(): Promise<NodeProbe>;
  /** Calls a JSON-RPC method within a short timeout. */
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
}
