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
    genesisHash: z.string(),
    knownGenesis: z.boolean().describe('Whether the genesis block is the published one of that network.'),
    units: z.object({
      symbol: z.string().nullable().describe('The coin’s ticker (PRL), when the profile knows it.'),
      baseUnit: z.string().describe('The integer unit every amount is in (grain, satoshi).'),
      decimals: Count.describe('Base units per coin = 10^decimals.'),
    }),
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
