import { type CoreNetwork, coreNetworkByGenesis } from '@explorer/chain';
import { keepCoreTxJson } from '@explorer/db';
import { ChainMismatchError, MalformedBlockError } from '../ingest/errors.js';
import { type ParsedBlock, type ParsedTx, parseBlock, parseTxJson, toBaseUnits } from '../ingest/parse.js';
import { outputNames } from '../ingest/transactions.js';
import { fetchEachTx } from './fetch-txs.js';
import type { ChainInfo, ChainProfile } from './profile.js';

/** Bitcoin's target block spacing; forks the profile does not know are assumed to keep it. */
const BITCOIN_BLOCK_SECONDS = 600;
/** MAX_BLOCK_WEIGHT 4,000,000 ÷ WITNESS_SCALE_FACTOR 4 (Bitcoin and Litecoin alike). */
const CORE_MAX_BLOCK_VSIZE = 1_000_000;

/** What the API says of a network of the bitcoin profile: its parameters where its genesis block is known. */
function describe(known: CoreNetwork | undefined, network: string | null) {
  if (!known) {
    return {
      network,
      name: null,
      knownGenesis: false,
      units: { symbol: null, baseUnit: 'satoshi', decimals: 8 },
      addresses: null,
      blockSeconds: BITCOIN_BLOCK_SECONDS,
    };
  }
  return {
    network: known.chain,
    name: known.name,
    knownGenesis: true,
    units: { ...known.units, decimals: 8 },
    addresses: { bech32Hrp: known.bech32Hrp, mwebHrp: known.mwebHrp, base58: { ...known.base58 } },
    blockSeconds: known.blockSeconds,
  };
}

/**
 * A decoded block made ready for the writer: each transaction's JSON kept as the index stores it (bytes and a
 * recipe, or text) and the block's JSON as text, so the node's JSON objects go no further than the decoder
 * (they are most of a verbose block's size, and its thread's garbage).
 */
function compact(block: ParsedBlock & { raw: Record<string, unknown> }): ParsedBlock {
  for (const t of block.txs) keepTx(t);
  return { ...block, raw: JSON.stringify(block.raw) };
}

/** Decides how a transaction's JSON is kept, with the fee the node wrote in it (the writer checks it). */
function keepTx(t: ParsedTx): void {
  const json = t.raw as Record<string, unknown>;
  const nodeFee = 'fee' in json ? toBaseUnits(json.fee) : null;
  t.kept = keepCoreTxJson(json, outputNames(t), nodeFee ?? 0n);
  // Only a recipe that writes a fee depends on it; a recipe is kept only where its rendering equals the node's.
  t.keptFee = t.kept.rawBytes !== null && nodeFee !== null ? nodeFee : null;
  t.raw = null;
}

/**
 * Bitcoin Core and its forks (litecoind included): blocks as `getblock <hash> 2` JSON, subsidies taken from the
 * coinbases (forks differ in their schedules), no certificates. A known genesis block (Bitcoin's mainnet,
 * testnet, testnet4, signet, regtest; Litecoin's mainnet, testnet, regtest) names the network, its unit and its
 * address prefixes; another keeps the node's chain name and no more.
 */
export function bitcoinProfile(genesisHash: string, network: string | null): ChainProfile {
  const info: ChainInfo = {
    profile: 'bitcoin',
    genesisHash,
    ...describe(coreNetworkByGenesis(genesisHash), network),
    emissionFormula: null,
    maxSupply: null,
    certificateForks: null,
    unsupportedCalls: [],
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
        return compact(parsed);
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
