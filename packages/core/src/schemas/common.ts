import { z } from 'zod';

/**
 * An amount in integer base units (grains on Pearl, satoshis on Bitcoin; 1 coin = 100,000,000) as a decimal
 * string: Pearl's supply (2.1·10^17 grains) is far past 2^53, the largest integer a JSON number carries exactly
 * in JavaScript.
 */
export const Amount = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/, 'an amount is a non-negative integer of base units, as a decimal string')
  .describe(
    'Amount in integer base units (grains on Pearl; 1 coin = 100,000,000 base units), as a decimal string: amounts can exceed 2^53.',
  )
  .meta({ examples: ['322964134063'] });

/** A signed amount in integer base units as a decimal string (negative when value left). */
export const SignedAmount = z
  .string()
  .regex(/^(0|-?[1-9][0-9]*)$/, 'a signed amount is an integer of base units, as a decimal string')
  .describe('Signed amount in integer base units, as a decimal string (negative when value left).')
  .meta({ examples: ['-1500000'] });

/** A 64-hex block hash or txid. */
export const Hash64 = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ examples: ['9b1a7f9890f3e8c7af7a63b73cda8fb34da0cc4119d756e31c1fa550d5ced17a'] });

/** A block height. */
export const Height = z
  .int()
  .min(0)
  .meta({ examples: [812345] });

/** The height of a tip (indexed or reported by the node): -1 while it is not known (before the first block). */
export const TipHeight = z
  .int()
  .min(-1)
  .meta({ examples: [812345] });

/** A count, size, index or duration: never negative. */
export const Count = z.int().min(0);

/** Unix time in seconds. */
export const UnixTime = z
  .int()
  .min(0)
  .describe('Unix time in seconds (block header time).')
  .meta({ examples: [1795389807] });

/** A known label of an address. */
export const LabelSchema = z
  .object({
    label: z.string().describe('Display name, e.g. an exchange or pool name.'),
    kind: z.string().describe('exchange, burn, service, pool, faucet…'),
  })
  .meta({ id: 'Label' });

/** Where and when something happened on chain. */
export const SeenSchema = z.object({ height: Height, time: UnixTime }).meta({ id: 'Seen' });
