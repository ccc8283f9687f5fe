import { z } from 'zod';
import { Amount, Count } from './common.js';

/** A derived address: where it sits in the wallet. */
export const WalletAddressSchema = z
  .object({
    branch: z.number().int().min(0).max(1).describe('0: receive, 1: change.'),
    index: Count.describe('Index within the branch.'),
    path: z
      .string()
      .describe(
        'Derivation path: from the master key (m/84h/1h/0h/0/5) when the descriptor gives its origin, else from the key (0/5).',
      )
      .meta({ examples: ["m/86'/1'/0'/0/5", '0/5'] }),
    address: z.string(),
  })
  .meta({ id: 'WalletAddress' });

/** A used address of a wallet, with its totals. */
export const WalletUsedAddressSchema = WalletAddressSchema.extend({
  balance: Amount,
  received: Amount.describe('Total ever received.'),
  sent: Amount.describe('Total ever spent.'),
  txCount: Count,
  utxoCount: Count,
}).meta({ id: 'WalletUsedAddress' });

/** A wallet as the API reads it from an extended public key or a descriptor. */
export const WalletSchema = z
  .object({
    descriptor: z
      .string()
      .describe(
        'The descriptor the key was read as (with its checksum, the key as xpub/tpub): store it to ask again.',
      ),
    script: z.enum(['tr', 'wpkh', 'sh-wpkh', 'pkh']).describe('The output script of every address.'),
    gap: Count.describe(
      'The gap limit used: discovery stopped after this many unused addresses in a row on each branch.',
    ),
    branches: z
      .number()
      .int()
      .min(1)
      .max(2)
      .describe('2 (receive and change), or 1 for a descriptor of one run (…/0/*).'),
    balance: Amount.describe('Confirmed balance of the used addresses.'),
    received: Amount.describe(
      'What the wallet’s transactions brought in, each by its net over the wallet (change is not counted).',
    ),
    sent: Amount.describe(
      'What the wallet’s transactions took out, each by its net over the wallet (fees included).',
    ),
    txCount: Count.describe('Distinct transactions touching the wallet.'),
    utxoCount: Count,
    derived: Count.describe(
      'Addresses examined to discover the used ones, both branches: on each, up to the last used one and the gap after it.',
    ),
    used: z
      .array(WalletUsedAddressSchema)
      .describe('Every used address (any history), receive then change, by index.'),
    firstUnused: z
      .object({
        receive: WalletAddressSchema,
        change: WalletAddressSchema.nullable().describe('Null for a descriptor of one run.'),
      })
      .describe('The address after the last used one of each branch: where a wallet pays next.'),
  })
  .meta({ id: 'Wallet' });

/** A wallet summary as the API returns it. */
export type Wallet = z.infer<typeof WalletSchema>;
/** A used address as the API returns it. */
export type WalletUsedAddress = z.infer<typeof WalletUsedAddressSchema>;
