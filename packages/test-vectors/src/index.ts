/** @explorer/test-vectors (private): a leaf package, so that every package's tests may declare it. */
import { readFileSync } from 'node:fs';

/**
 * Pearl's golden vectors (from Pearl's own sources; each entry names its file and commit): headers, blocks,
 * certificates, addresses and emission figures the codecs, the chain profile and the devnet are checked
 * against. Parsed as is: the tests index it by name.
 */
export const pearlVectors: any = JSON.parse(readFileSync(new URL('../pearl.json', import.meta.url), 'utf8'));

/** The real-proof regtest blocks a real pearld 1.1.5 mined (see pearld/README.md). */
export interface PearldRealProofBlocks {
  network: 'regtest';
  source: string;
  note: string;
  /** Each block as `getblock <hash> 0` gives it (hex), in the order the node stored them; [0] is genesis. */
  blocks: string[];
}

let realProofBlocks: PearldRealProofBlocks | undefined;

/** 23 regtest blocks with real zero-knowledge certificates and one reorganisation, read once (2.6 MB). */
export function pearldRealProofBlocks(): PearldRealProofBlocks {
  realProofBlocks ??= JSON.parse(
    readFileSync(new URL('../pearld/regtest-real-proof-blocks.json', import.meta.url), 'utf8'),
  ) as PearldRealProofBlocks;
  return realProofBlocks;
}

/**
 * A real pearld's answer on simnet, by file name (see pearld/README.md): `.json` files parsed, others as text.
 * @example pearldSimnetSample('getblock_h20_v2.json').rawtx[0].txid
 */
export function pearldSimnetSample(name: string): any {
  const text = readFileSync(new URL(`../pearld/simnet-samples/${name}`, import.meta.url), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : text;
}
