import type { ChainNode, NodeProbe } from '@explorer/core';
import { createNodeClient, type NodeClient } from '@explorer/indexer';

/** The chain node as the API sees it, plus close() for the background refresher. */
export interface NodeAdapter extends ChainNode {
  /** Stops the background refresher. */
  close(): void;
}

/** Options of createNodeAdapter. */
export interface NodeAdapterOptions {
  /** The node's JSON-RPC URL (credentials in the URL, or `cookieFile`). */
  url: string;
  /** Bound on each request-path call and probe, in milliseconds (default 2,000). */
  timeoutMs?: number;
  /** How often the cached height is refreshed, in milliseconds (default 2,000). */
  refreshMs?: number;
  /** Certificate (PEM) to trust for an https:// node. */
  tlsCa?: Buffer | string;
  /** The node's cookie file, in place of credentials in the URL (read again when the node restarts). */
  cookieFile?: string;
  /** A client to use instead of one built from url (tests). */
  client?: NodeClient;
}

/**
 * Adapts a JSON-RPC node for the API: a cached height refreshed in the background, bounded probes and calls.
 * @example const node = createNodeAdapter({ url: 'http://user:pass@127.0.0.1:9332/' })
 */
export function createNodeAdapter(opts: NodeAdapterOptions): NodeAdapter {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const refreshMs = opts.refreshMs ?? 2_000;
  // One attempt: a request waiting on retries of a dead node is worse than a prompt 503.
  const client =
    opts.client ??
    createNodeClient({
      url: opts.url,
      timeoutMs,
      attempts: 1,
      tlsCa: opts.tlsCa,
      cookieFile: opts.cookieFile,
    });
  let height: number | null = null;
  let refreshing = false;
  let closed = false;

  async function probe(): Promise<NodeProbe> {
    const started = performance.now();
    try {
      const h = await client.call<number>('getblockcount');
      if (typeof h !== 'number' || !Number.isInteger(h))
        throw new Error('getblockcount returned a non-integer');
      height = h;
      return { reachable: true, height: h, latencyMs: Math.round(performance.now() - started), error: null };
    } catch (err) {
      return {
        reachable: false,
        height: null,
        latencyMs: null,
        error: (err as Error)?.message ?? String(err),
      };
    }
  }

  async function refresh(): Promise<void> {
    if (refreshing || closed) return;
    refreshing = true;
    try {
      await probe();
    } finally {
      refreshing = false;
    }
  }

  void refresh();
  const timer = setInterval(() => void refresh(), refreshMs);
  // The refresher must never keep the process alive on its own.
  timer.unref();

  return {
    lastHeight: () => height,
    probe,
    call: <T>(method: string, params?: unknown[]) => client.call<T>(method, params),
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
