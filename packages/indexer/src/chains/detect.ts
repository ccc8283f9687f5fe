import {
  coreChainName,
  coreNetworkByGenesis,
  coreNetworksByChain,
  DecodeError,
  decodePearlBlock,
  type PearlNetwork,
  pearlNetworkByName,
  pearlNetworksByGenesis,
  sha256d,
  toDisplayHex,
} from '@explorer/chain';
import { type Logger, silentLogger } from '@explorer/core';
import type { NodeClient } from '../node-client.js';
import { bitcoinProfile } from './bitcoin.js';
import { pearlProfile } from './pearl.js';
import { type ChainInfo, type ChainProfile, ChainProfileError, type ChainProfileName } from './profile.js';

/**
 * The default JSON-RPC port of a chain's network (mainnet when none is named): pearld's per network, Bitcoin
 * Core's (forks such as litecoind use their own, so name the port for them). Undefined for an unknown network.
 */
export function defaultRpcPort(chain: ChainProfileName, network: string | null = null): number | undefined {
  if (chain === 'pearl') return pearlNetworkByName(network ?? 'mainnet')?.rpcPort;
  return coreNetworksByChain(network ?? 'main', 'bitcoin')[0]?.rpcPort;
}

/** What the operator said about the chain (CHAIN, CHAIN_NETWORK); unset parts are detected. */
export interface ChainSelection {
  chain?: ChainProfileName | null;
  network?: string | null;
}

async function chainName(node: NodeClient): Promise<string | null> {
  try {
    const info = await node.call<{ chain?: unknown }>('getblockchaininfo');
    return typeof info?.chain === 'string' ? info.chain : null;
  } catch {
    // pearld refuses getblockchaininfo to limited RPC users; the genesis block still tells the chain.
    return null;
  }
}

/**
 * Finds out which chain a node serves from its genesis block (`getblock <hash> 0`): an 80-byte header hashing
 * to the genesis hash is Bitcoin's format; a certificate followed by a 108-byte header hashing to it is Pearl's.
 * A network is known by its genesis hash (Pearl's regtest and simnet share one; the node's chain name tells
 * them apart; Bitcoin's and Litecoin's each have their own), else by the chain name the node reports.
 * `selection` overrides, and is checked.
 * @throws ChainProfileError when the node's chain is not the one selected, or cannot be told.
 */
export async function detectChain(
  node: NodeClient,
  selection: ChainSelection = {},
  log?: Logger,
): Promise<ChainProfile> {
  const genesis = await node.call<string>('getblockhash', [0]);
  const rawHex = await node.call<string>('getblock', [genesis, 0]);
  const raw = Buffer.from(typeof rawHex === 'string' ? rawHex : '', 'hex');
  const isBitcoin = raw.length >= 80 && toDisplayHex(sha256d(raw.subarray(0, 80))) === genesis;
  let isPearl = false;
  let why = '';
  if (!isBitcoin) {
    try {
      decodePearlBlock(raw, genesis);
      isPearl = true;
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      why = err.message;
    }
  }
  const found: ChainProfileName | null = isBitcoin ? 'bitcoin' : isPearl ? 'pearl' : null;
  const want = selection.chain ?? null;
  if (want && found !== want) {
    throw new ChainProfileError(
      `CHAIN=${want}, but the node's genesis block ${genesis} is ${found ? `a ${found} block` : `neither a Bitcoin nor a Pearl block (${why})`}`,
    );
  }
  if (!found) {
    throw new ChainProfileError(
      `cannot tell the node's chain from its genesis block ${genesis} (${why}); set CHAIN=pearl or CHAIN=bitcoin`,
    );
  }
  const name = selection.network ?? (await chainName(node));
  if (found === 'bitcoin') {
    const known = coreNetworkByGenesis(genesis);
    if (known && selection.network && coreChainName(selection.network) !== known.chain) {
      throw new ChainProfileError(
        `CHAIN_NETWORK=${selection.network}, but the node's genesis block is ${known.name}'s (chain ${known.chain})`,
      );
    }
    return bitcoinProfile(genesis, name);
  }

  const byGenesis = pearlNetworksByGenesis(genesis);
  let network: PearlNetwork | undefined;
  let knownGenesis = false;
  if (byGenesis.length > 0) {
    network = byGenesis.find((n) => n.name === name) ?? byGenesis[0];
    knownGenesis = true;
    if (selection.network && network?.name !== selection.network) {
      throw new ChainProfileError(
        `CHAIN_NETWORK=${selection.network}, but the node's genesis block is ${byGenesis.map((n) => n.name).join(' or ')}'s`,
      );
    }
  } else if (name) {
    network = pearlNetworkByName(name);
    if (!network)
      throw new ChainProfileError(
        `the node reports the chain "${name}", which is not a Pearl network; set CHAIN_NETWORK`,
      );
  } else {
    throw new ChainProfileError(
      `the node's genesis block ${genesis} is not that of a known Pearl network and the node does not name its chain; set CHAIN_NETWORK (mainnet, testnet, testnet2, regtest, simnet or signet)`,
    );
  }
  if (!knownGenesis)
    log?.info(
      { genesis, network: network!.name },
      'a Pearl network with its own genesis block: addresses and difficulty follow its named parameters; its fork heights are not known',
    );
  return pearlProfile({ network: network!, genesisHash: genesis, knownGenesis, log: log ?? silentLogger });
}

/**
 * The profile `detectChain` made for a chain it described as `info`, made again from that description alone
 * (another thread reads blocks with it); undefined for a description it would not have made.
 */
export function profileFor(info: ChainInfo, log: Logger = silentLogger): ChainProfile | undefined {
  if (info.profile === 'bitcoin') return bitcoinProfile(info.genesisHash, info.network);
  const network = info.network === null ? undefined : pearlNetworkByName(info.network);
  if (!network) return undefined;
  return pearlProfile({ network, genesisHash: info.genesisHash, knownGenesis: info.knownGenesis, log });
}
