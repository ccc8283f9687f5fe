import { z } from 'zod';

/** An amount in integer base units (1 coin = 100,000,000). Every amount of this chain stays below 2^53. */
export const Amount = z.int().describe('Amount in integer base units (1 coin = 100,000,000 base units).');

/** A 64-hex block hash or txid. */
export const Hash64 = z.string().regex(/^[0-9a-f]{64}$/);

/** A block height. */
export const Height = z.int().min(0);

/** Unix time in seconds. */
export const UnixTime = z.int().describe('Unix time in seconds (block header time).');

/** A known label of an address. */
export const LabelSchema = z
  .object({
    label: z.string().describe('Display name, e.g. an exchange or pool name.'),
    kind: z.string().describe('exchange, burn, service, pool, faucet…'),
  })
  .meta({ id: 'Label' });

/** Where and when something happened on chain. */
export const SeenSchema = z.object({ height: Height, time: UnixTime }).meta({ id: 'Seen' });
