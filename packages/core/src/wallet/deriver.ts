import { type AddressJob, deriveAddressTexts } from '@explorer/chain';

/**
 * A run of addresses to derive, as plain data (what a worker thread is sent): @explorer/chain's `AddressJob`.
 * Its chain is that package's `WalletChain`, typed loosely here so that core's declarations name no type of
 * @explorer/chain, whose declarations name Node's Buffer: the SDK's types are read from core's, in browsers too.
 */
export interface WalletDeriveJob {
  /** The key as @explorer/chain's `parseWalletKey` reads it (`WalletKey.descriptor`). */
  key: string;
  /** @explorer/chain's `WalletChain` of the key. */
  chain: unknown;
  branch: number;
  from: number;
  count: number;
}

// Every AddressJob is a WalletDeriveJob: the loose type above cannot drift from chain's.
const _sameShape: (job: AddressJob) => WalletDeriveJob = (job) => job;
void _sameShape;

/**
 * Where a wallet's addresses are derived: the costly part of a wallet request (a fresh key's first discovery
 * derives 200 addresses, tens of milliseconds of CPU). Core runs anywhere, so it takes the deriver from its host:
 * the server passes a bounded pool of worker threads, which may refuse a job with a ServiceUnavailableError
 * (503, Retry-After) when its queue is full.
 */
export type WalletDeriver = (job: WalletDeriveJob) => Promise<string[]>;

/**
 * Derives in the calling thread: the default for embedders, which blocks that thread while it derives (about
 * 0.1–0.35 ms per taproot address). A host serving many clients passes a deriver off its request thread.
 * @example createExplorerApi({ store, routes: v1Routes, walletDeriver: deriveInThread })
 */
export const deriveInThread: WalletDeriver = async (job) => deriveAddressTexts(job as AddressJob);
