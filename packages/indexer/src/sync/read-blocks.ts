import type { ChainProfile } from '../chains/profile.js';
import { MalformedBlockError } from '../ingest/errors.js';
import type { ParsedBlock } from '../ingest/parse.js';
import type { NodeClient } from '../node-client.js';

/**
 * Reads `count` consecutive blocks from `from` through a chain profile: their hashes (checked against the
 * profile's checkpoints), then the blocks, decoded. `prevHash` is the hash of the block before `from`; undefined
 * asks the node for it with the others (null before genesis).
 */
export async function readBlocks(
  node: NodeClient,
  profile: ChainProfile,
  from: number,
  count: number,
  prevHash: string | null | undefined,
): Promise<ParsedBlock[]> {
  const heights = Array.from({ length: count }, (_, i) => from + i);
  const ask = prevHash === undefined && from > 0 ? [from - 1, ...heights] : heights;
  const answered = await node.batch<string>(ask.map((h) => ({ method: 'getblockhash', params: [h] })));
  const hashes = ask === heights ? answered : answered.slice(1);
  const prev = prevHash === undefined ? (from > 0 ? answered[0]! : null) : prevHash;
  heights.forEach((h, j) => {
    const pinned = profile.checkpoint(h);
    if (pinned && pinned !== hashes[j])
      throw new MalformedBlockError(
        `the node's block ${h} is ${hashes[j]}, but the ${profile.info.network} checkpoint there is ${pinned}: the node follows another chain`,
      );
  });
  return profile.fetchBlocks(node, heights, hashes, prev);
}
