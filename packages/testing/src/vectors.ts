import { readFileSync } from 'node:fs';

/**
 * Pearl's golden vectors (from Pearl's own sources): headers, blocks, certificates, addresses and emission
 * figures that the codecs, the indexer's chain profile and the devnet are checked against.
 */
/** Parsed as is: the tests index it by name. */
export const pearlVectors: any = JSON.parse(
  readFileSync(new URL('../vectors/pearl.json', import.meta.url), 'utf8'),
);
