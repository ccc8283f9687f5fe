/** @explorer/test-vectors (private): a leaf package, so that every package's tests may declare it. */
import { readFileSync } from 'node:fs';

/**
 * Pearl's golden vectors (from Pearl's own sources; each entry names its file and commit): headers, blocks,
 * certificates, addresses and emission figures the codecs, the chain profile and the devnet are checked
 * against. Parsed as is: the tests index it by name.
 */
export const pearlVectors: any = JSON.parse(readFileSync(new URL('../pearl.json', import.meta.url), 'utf8'));
