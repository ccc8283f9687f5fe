import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import type { ApiConfig, RouteContext } from '../route.js';
import type { BlockRef, Store } from '../store.js';

const MAX_HEIGHT = 2_147_483_647;

/** `heightOrHash`: a decimal height or a 64-hex block hash (any case). */
export const heightOrHashParam = z.object({
  heightOrHash: z
    .string()
    .regex(
      /^(\d{1,10}|[0-9a-fA-F]{64})$/,
      `heightOrHash must be a block height (0 to ${MAX_HEIGHT}) or a 64-hex block hash`,
    )
    .refine(
      (s) => s.length === 64 || Number(s) <= MAX_HEIGHT,
      `heightOrHash must be a block height (0 to ${MAX_HEIGHT}) or a 64-hex block hash`,
    )
    .transform((s): BlockRef => (s.length === 64 ? { hash: s.toLowerCase() } : { height: Number(s) }))
    .describe('Block height or block hash.')
    .meta({ examples: ['812345'] }),
});

/** `txid`: 64 hex characters (any case). */
export const txidParam = z.object({
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters')
    .transform((s) => s.toLowerCase())
    .describe('Transaction id (64 hex).')
    .meta({ examples: ['4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'] }),
});

/** What an address can look like (base58 or bech32 letters and digits), before any chain reads it. */
export const ADDRESS_FORM = /^[A-Za-z0-9]{14,130}$/;
const ADDRESS_MESSAGE = 'address must be 14 to 130 letters and digits (a base58 or bech32 address)';

/** A well-formed address: base58 or bech32 characters, 14 to 130 long. Network is not checked. */
export const addressSchema = z
  .string()
  .regex(ADDRESS_FORM, ADDRESS_MESSAGE)
  .describe('Address (base58 or bech32).')
  .meta({ examples: ['rprl1p2pmauh63a0nlvssnx4ey0ctsylk87ag6dmwdxa5v5lhae6qf63tqln6dx3'] });

/** `address` path parameter. */
export const addressParam = z.object({ address: addressSchema });

/** The entries of a comma-separated address list as sent: trimmed, empty ones dropped, repeats kept. */
export const addressListEntries = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);

/**
 * `addresses`: a comma-separated list of addresses, each checked as the single-address endpoints check
 * `address` (the first bad one is named in the 400), repeats dropped (the first keeps its place), at least one.
 * How many a request may name depends on the caller (see address-lists.ts).
 */
export const addressListSchema = z
  .string()
  .transform((text, ctx) => {
    const entries = addressListEntries(text);
    if (entries.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'addresses must name at least one address (comma-separated)' });
      return z.NEVER;
    }
    const bad = entries.find((entry) => !ADDRESS_FORM.test(entry));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `addresses: ${JSON.stringify(bad.slice(0, 130))} is not an address: ${ADDRESS_MESSAGE}`,
      });
      return z.NEVER;
    }
    return [...new Set(entries)];
  })
  .describe('Comma-separated addresses (base58 or bech32); repeats count once.')
  .meta({
    examples: [
      'rprl1p2pmauh63a0nlvssnx4ey0ctsylk87ag6dmwdxa5v5lhae6qf63tqln6dx3,rprl1pf3w7rh0ps4gq4kjrlkkm4y9h9d9z8zgt0pp3dgmvxyl7cx9w4efqr7rqpn',
    ],
  });

/** Confirmations of something at `height`, from the tip meta reports. */
export function confirmations(ctx: RouteContext<unknown, unknown>, height: number): number {
  return Math.max(1, ctx.meta.indexedTip - height + 1);
}

/** True when a block at `height` is past the finality depth: its data can no longer change. */
export function isFinal(tip: number, height: number, config: ApiConfig): boolean {
  // Strictly below the deepest block a reorg of `finalityDepth` (the indexer's limit) could remove.
  return tip - height >= config.finalityDepth;
}

/** A key naming a block reference, for the cache. */
export const refKey = (ref: BlockRef) => ('height' in ref ? `h${ref.height}` : `x${ref.hash}`);

/** Throws the 404 of an absent block. */
export function blockNotFound(ref: BlockRef): never {
  throw new NotFoundError('height' in ref ? `block ${ref.height} not found` : `block ${ref.hash} not found`);
}

/**
 * The store as a cursor's reorg guard sees it: the hash of a final block cannot change, so it is looked up once
 * and then kept (quietly: the answer itself is not served from the cache).
 */
export function guardStore<P, Q>(ctx: RouteContext<P, Q>): Pick<Store, 'blockHashAt'> {
  return {
    blockHashAt: (height) =>
      ctx.memo(
        `hash-at:${height}`,
        () => ctx.store.blockHashAt(height),
        () => isFinal(ctx.meta.indexedTip, height, ctx.config),
        { quiet: true },
      ),
  };
}
