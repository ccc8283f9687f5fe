import { ChainMismatchError } from '../ingest/errors.js';
import { parseBlock } from '../ingest/parse.js';
import type { ChainInfo, ChainProfile } from './profile.js';

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
  };
}
