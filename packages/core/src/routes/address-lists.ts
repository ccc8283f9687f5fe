import { z } from 'zod';
import { BadRequestError } from '../errors.js';
import { multiAddressTxsKey, multiAddressUtxosKey } from '../pagination/keys.js';
import { defineList } from '../pagination/list-route.js';
import { defineRoute, type Identity } from '../route.js';
import { AddressSummarySchema } from '../schemas/address.js';
import { addressListEntries, addressListSchema } from './params.js';

// Many addresses in one request: what a wallet that derives many addresses from one key asks for instead of one
// request per address. Each answer is what the single-address endpoints give, combined.

/** How many distinct addresses one request may name: without an API key, and with one. */
export const ADDRESS_LIST_LIMITS = { anonymous: 50, key: 200 } as const;

/** The most distinct addresses a request of this caller may name. */
export const addressListLimit = (identity: Identity) =>
  identity.type === 'key' ? ADDRESS_LIST_LIMITS.key : ADDRESS_LIST_LIMITS.anonymous;

/**
 * The rate-limit points of a many-address request: 1, plus 1 per started ten distinct addresses it names
 * (1 + ⌈n / 10⌉: 2 for one to ten addresses, 6 for 50, 21 for 200), read from the query as sent, before it is
 * validated, so a refused request costs what it asked for — but never more than the most any caller may ask
 * for (21): a URL of junk entries is refused at the price of a full request, not of a window's budget.
 * @example addressListCost(new URLSearchParams('addresses=a,b,c')) // 2
 */
export function addressListCost(search: URLSearchParams): number {
  const text = search.get('addresses');
  const n = text === null ? 0 : new Set(addressListEntries(text)).size;
  return 1 + Math.ceil(Math.min(n, ADDRESS_LIST_LIMITS.key) / 10);
}

/** The asked addresses, refused (400) when more than the caller may name. */
function asked(ctx: { query: { addresses: string[] }; identity: Identity }): string[] {
  const { addresses } = ctx.query;
  const max = addressListLimit(ctx.identity);
  if (addresses.length > max)
    throw new BadRequestError(
      `addresses names ${addresses.length} distinct addresses; at most ${max} per request ${
        ctx.identity.type === 'key'
          ? 'with an API key'
          : `without an API key (${ADDRESS_LIST_LIMITS.key} with one)`
      }`,
    );
  return addresses;
}

/**
 * Refuses a legacy offset on a list merged from many addresses: each address would have to give up to 10,000
 * more rows, so a page of 200 busy addresses could read two million. Such lists page by cursor only.
 */
export function refuseOffset(q: { offset?: number }): void {
  if (q.offset)
    throw new BadRequestError(
      'offset is not accepted on a list merged from many addresses: follow pagination.nextCursor',
    );
}

/** A list's scope: the set of addresses (sorted), so the order they are named in does not matter. */
const setScope = (list: string, addresses: readonly string[]) => `${list}:${[...addresses].sort().join(',')}`;

const addressesQuery = { addresses: addressListSchema };

const LIMITS_TEXT = `At most ${ADDRESS_LIST_LIMITS.anonymous} distinct addresses without an API key, ${ADDRESS_LIST_LIMITS.key} with one; a request costs 1 + ⌈n / 10⌉ rate-limit points for n addresses (21 at most). The merged lists page by cursor only: a legacy offset is refused.`;

/** The many-address routes: `/v1/addresses?addresses=a,b,…`, `…/txs`, `…/utxos`. */
export const addressListRoutes = [
  defineRoute({
    id: 'getAddresses',
    path: '/v1/addresses',
    perTip: true,
    tag: 'Addresses',
    summary: 'Summaries of many addresses',
    description: `Each address as \`/v1/addresses/{address}\` has it, in the order asked (repeats once); an address never seen answers with zeros and seen=false. ${LIMITS_TEXT}`,
    query: z.object(addressesQuery),
    cost: addressListCost,
    response: { addresses: z.array(AddressSummarySchema) },
    async handler(ctx) {
      return { body: { addresses: await ctx.store.getAddresses(asked(ctx)) } };
    },
  }),
  defineList({
    id: 'listMultiAddressTxs',
    path: '/v1/addresses/txs',
    perTip: true,
    tag: 'Addresses',
    summary: 'Transactions of many addresses, merged',
    description: `Newest first, one cursor over all the addresses; each transaction once, with what it received, sent and its net summed over the asked addresses it touched. ${LIMITS_TEXT}`,
    query: addressesQuery,
    cost: addressListCost,
    items: 'txs',
    key: multiAddressTxsKey,
    scope: (ctx) => {
      refuseOffset(ctx.query);
      return setScope('address-list-txs', asked(ctx));
    },
    load: (ctx, page) => ctx.store.listMultiAddressTxs(ctx.query.addresses, page),
    confirmations: 'blockHeight',
  }),
  defineList({
    id: 'listMultiAddressUtxos',
    path: '/v1/addresses/utxos',
    perTip: true,
    tag: 'Addresses',
    summary: 'Unspent outputs of many addresses, merged',
    description: `Newest first (the order of \`/v1/addresses/{address}/utxos\`), one cursor over all the addresses; each output names the address it pays. ${LIMITS_TEXT}`,
    query: addressesQuery,
    cost: addressListCost,
    items: 'utxos',
    key: multiAddressUtxosKey,
    scope: (ctx) => {
      refuseOffset(ctx.query);
      return setScope('address-list-utxos', asked(ctx));
    },
    load: (ctx, page) => ctx.store.listMultiAddressUtxos(ctx.query.addresses, page),
    confirmations: 'blockHeight',
  }),
] as const;
