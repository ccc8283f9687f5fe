import type { Logger } from '@explorer/core';
import type { Sql } from '@explorer/db';
import type { ServerConfig } from '../config/index.js';
import type { DevnetChain } from './devnet-chain.js';
import type { Shutdown } from './shutdown.js';

/** The demo's built-in devnet, running in this process. */
export interface DemoChain {
  chain: DevnetChain;
  /** Brings an index written before this start in line with the devnet's chain (see reconcileWithDevnet). */
  reconcile(sql: Sql, opts: { retain?: number }): Promise<number>;
}

/**
 * Starts the built-in devnet when the configuration asks for the demo (it indexes and names no node). Its code
 * is loaded only then: a deployment with a node never loads it, and an API-only process does not start a
 * private devnet, whose heights would not be the indexer's chain.
 */
export async function startDemo(
  config: ServerConfig,
  log: Logger,
  shutdown: Shutdown,
): Promise<DemoChain | null> {
  if (config.nodeRpcUrl || !config.index) return null;
  const demo = await import('./devnet-chain.js');
  const chain = await demo.startDevnetChain(config);
  shutdown.add(() => chain.close());
  log.info({ url: chain.url, height: chain.devnet.height() }, 'devnet started');
  return { chain, reconcile: (sql, opts) => demo.reconcileWithDevnet(sql, chain.devnet, log, opts) };
}
