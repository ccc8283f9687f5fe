import { ChainMismatchError, MalformedBlockError } from '../ingest/errors.js';
import { parseBlock, parseTxJson } from '../ingest/parse.js';
import { fetchEachTx } from './fetch-txs.js';
import type { ChainInfo, ChainProfile } from './profile.js';

/** Genesis hashes of Litecoin's mainnet, testnet4 and regtest: a fork with 150-second blocks. */
const LITECOIN_GENESIS = new Set([
  '12a765e31ffd4059bada1e25190f6e98c99d9714d334efa41a195a7e7e04bfe2',
  '4966625a4b2851d9fdee139e56211a0d88575f59ed816ff5e6a63deb4e3e29a0',
  '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9',
]);
/** Bitcoin's target block spacing; forks the profile does not know are assumed to keep it. */
const BITCOIN_BLOCK_SECONDS = 600;
const LITECOIN_BLOCK_SECONDS = 150;
/** MAX_BLOCK_WEIGHT 4,000,000 ÷ WITNESS_SCALE_FACTOR 4 (Bitcoin and Litecoin alike). */
const CORE_MAX_BLOCK_VSIZE = 1_000_000;

/**
 * Bitcoin Core and its forks (litecoind included): blocks as `getblock <hash> 2` JSON, subsidies taken from the
 * coinbases (forks differ in their schedules), no certificates.
 */
export function bitcoinProfile(genesisHash: string, network: string | null): ChainProfile {
  const info: ChainInfo = {
    profile: 'bitcoin',
    network,
    genesisHash,
    knownGenesis: false,
    units: { symbol: null, baseUnit: 'satoshi', decimals: 8 },
    emissionFormula: null,
    maxSupply: null,
    certificateForks: null,
    unsupportedCalls: [],
    blockSeconds: LITECOIN_GENESIS.has(genesisHash) ? LITECOIN_BLOCK_SECONDS : BITCOIN_BLOCK_SECONDS,
    maxBlockVsize: CORE_MAX_BLOCK_VSIZE,
  };
  return {
    info,
    async fetchBlocks(node, heights, hashes) {
      const blocks = await node.batch<unknown>(hashes.map((h) => ({ method: 'getblock', params: [h, 2] })));
      return blocks.map((b, i) => {
        const parsed = parseBlock(b);
        if (parsed.height !== heights[i])
          throw new ChainMismatchError(`node returned height ${parsed.height} for ${heights[i]}`);
        return parsed;
      });
    },
    checkpoint: () => undefined,
    fetchTxs: (node, txids) =>
      fetchEachTx<unknown, ReturnType<typeof parseTxJson>>(node, txids, 'getrawtransaction', [true], (t) => {
        try {
          return parseTxJson(t, -1);
        } catch (err) {
          if (err instanceof MalformedBlockError) return null;
          throw err;
        }
      }),
  };
}
