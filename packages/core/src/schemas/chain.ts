import { z } from 'zod';
import { Count, Height } from './common.js';

/** The chain the API's data comes from, as the indexer recorded it. */
export const ChainSchema = z
  .object({
    profile: z.string().describe('The chain family: pearl (pearld) or bitcoin (Bitcoin Core and its forks).'),
    network: z
      .string()
      .nullable()
      .describe('The node’s network (mainnet, testnet, testnet2, regtest… or Core’s chain name).'),
    name: z
      .string()
      .nullable()
      .optional()
      .describe(
        'How people call the network (Pearl mainnet, Bitcoin testnet4, Litecoin regtest…); null for a Bitcoin Core fork whose genesis block is not a known one; absent when an older indexer recorded the chain.',
      ),
    genesisHash: z.string(),
    knownGenesis: z.boolean().describe('Whether the genesis block is the published one of that network.'),
    units: z.object({
      symbol: z
        .string()
        .nullable()
        .describe(
          'The coin’s ticker (PRL; BTC, LTC, and tBTC, tLTC on their test networks), when the network is known.',
        ),
      baseUnit: z.string().describe('The integer unit every amount is in (grain, satoshi, litoshi).'),
      decimals: Count.describe('Base units per coin = 10^decimals.'),
    }),
    addresses: z
      .object({
        bech32Hrp: z
          .string()
          .describe('Human-readable part of segwit addresses (prl, bc, tb, bcrt, ltc, tltc, rltc…).'),
        mwebHrp: z
          .string()
          .nullable()
          .describe('Human-readable part of Litecoin’s MWEB addresses (ltcmweb, tmweb); null without MWEB.'),
        base58: z
          .object({
            pubkeyHash: Count.describe('Version byte of P2PKH addresses.'),
            scriptHash: Count.describe('Version byte of P2SH addresses, as the node writes them.'),
            legacyScriptHash: Count.nullable().describe(
              'An older P2SH version byte the node still reads (Litecoin’s 5 and 196); null when none.',
            ),
          })
          .nullable()
          .describe('Base58Check version bytes; null where the chain has no Base58 addresses (Pearl).'),
      })
      .nullable()
      .optional()
      .describe(
        'The prefixes of the network’s addresses; null where not known (a Core fork of unknown genesis); absent when an older indexer recorded the chain.',
      ),
    emissionFormula: z
      .string()
      .nullable()
      .describe('The emission schedule supply figures use; null when taken from the coinbases.'),
    maxSupply: z
      .string()
      .nullable()
      .describe('Base units the schedule will ever emit (decimal string); null when not known.'),
    certificateForks: z
      .record(z.string(), Height.nullable())
      .nullable()
      .describe(
        'Heights from which each certificate version is required (moe: v2, saltedSeed: v3, fp8: v4, fp16: v5), where the network’s parameters are known.',
      ),
    unsupportedCalls: z.array(z.string()).describe('JSON-RPC calls the node does not answer.'),
    blockSeconds: Count.optional().describe(
      'Seconds the chain aims to put between blocks (Pearl 194, Bitcoin 600, Litecoin 150); absent when an older indexer recorded the chain.',
    ),
    maxBlockVsize: Count.optional().describe(
      'Virtual bytes one block may hold; absent when an older indexer recorded the chain.',
    ),
  })
  .meta({ id: 'Chain' });

/** Chain identity. */
export type ChainIdentity = z.infer<typeof ChainSchema>;
