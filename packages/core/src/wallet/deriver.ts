import { type AddressJob, deriveAddressTexts } from '@explorer/chain';

/**
 * Where a wallet's addresses are derived: the costly part of a wallet request (a fresh key's first discovery
 * derives 200 addresses, tens of milliseconds of CPU). Core runs anywhere, so it takes the deriver from its host:
 * the server passes a bounded pool of worker threads, which may refuse a job with a ServiceUnavailableError
 * (503, Retry-After) when its queue is full.
 */
export type WalletDeriver = (job: AddressJob) => Promise<string[]>;

/**
 * Derives in the calling thread: the default for embedders, which blocks that thread while it derives (about
 * 0.35 ms per taproot address). A host serving many clients passes a deriver off its request thread.
 * @example createExplorerApi({ store, routes: v1Routes, walletDeriver: deriveInThread })
 */
export const deriveInThread: WalletDeriver = async (job) => deriveAddressTexts(job);
