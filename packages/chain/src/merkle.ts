import { ByteWriter, varintSize } from './bytes/writer.js';
import { sha256d } from './hash.js';

/**
 * The merkle branch of the hash at `index` among `hashes` (internal byte order, block order): the sibling of
 * each level, leaf level first, under Bitcoin's rule that the last hash of an odd level is paired with itself
 * (its sibling is then itself). Hashing the leaf up this branch ({@link merkleRootFromBranch}) gives the root
 * {@link merkleRoot} computes.
 * @example merkleBranch(txids.map(fromDisplayHex), 3).map(toDisplayHex)
 */
export function merkleBranch(hashes: readonly Uint8Array[], index: number): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= hashes.length)
    throw new RangeError(`index ${index} is outside the ${hashes.length} hashes`);
  const branch: Buffer[] = [];
  let level = hashes;
  let i = index;
  while (level.length > 1) {
    const sibling = i ^ 1;
    branch.push(Buffer.from((level[sibling] ?? level[i]) as Uint8Array));
    const next: Buffer[] = [];
    for (let j = 0; j < level.length; j += 2) {
      const a = level[j] as Uint8Array;
      next.push(sha256d(a, level[j + 1] ?? a));
    }
    level = next;
    i >>= 1;
  }
  return branch;
}

/**
 * The root a leaf (internal byte order) at `index` hashes up to through its branch (leaf level first): at each
 * level the running hash is on the left when that level's bit of `index` is 0, on the right when it is 1.
 * @example merkleRootFromBranch(fromDisplayHex(txid), proof.merkle.map(fromDisplayHex), proof.pos)
 */
export function merkleRootFromBranch(leaf: Uint8Array, branch: readonly Uint8Array[], index: number): Buffer {
  let h: Buffer = Buffer.from(leaf);
  branch.forEach((sibling, level) => {
    h = (index >> level) & 1 ? sha256d(sibling, h) : sha256d(h, sibling);
  });
  return h;
}

/**
 * The partial merkle tree (BIP37) that proves the hash at `index` among `hashes` (internal byte order, block
 * order): the hashes and flag bits of a depth-first walk from the root, a subtree holding no match given by its
 * hash alone. With the block's header and transaction count it is a `merkleblock`, what Bitcoin Core's
 * `gettxoutproof` answers.
 * @example const { hashes, flags } = partialMerkleTree(txids.map(fromDisplayHex), 3)
 */
export function partialMerkleTree(
  hashes: readonly Uint8Array[],
  index: number,
): { hashes: Buffer[]; flags: boolean[] } {
  if (!Number.isInteger(index) || index < 0 || index >= hashes.length)
    throw new RangeError(`index ${index} is outside the ${hashes.length} hashes`);
  const n = hashes.length;
  const width = (height: number) => (n + (1 << height) - 1) >> height;
  let top = 0;
  while (width(top) > 1) top++;
  // Each level's hashes, from the leaves up, under the odd-level rule.
  const levels: Uint8Array[][] = [[...hashes]];
  for (let h = 1; h <= top; h++) {
    const below = levels[h - 1]!;
    const level: Uint8Array[] = [];
    for (let j = 0; j < below.length; j += 2) level.push(sha256d(below[j]!, below[j + 1] ?? below[j]!));
    levels.push(level);
  }
  const out = { hashes: [] as Buffer[], flags: [] as boolean[] };
  const walk = (height: number, pos: number) => {
    const holdsMatch = pos === index >> height;
    out.flags.push(holdsMatch);
    if (height === 0 || !holdsMatch) {
      out.hashes.push(Buffer.from(levels[height]![pos]!));
      return;
    }
    walk(height - 1, pos * 2);
    if (pos * 2 + 1 < width(height - 1)) walk(height - 1, pos * 2 + 1);
  };
  walk(top, 0);
  return out;
}

/**
 * The `merkleblock` proving the transaction at `index` of a block (`gettxoutproof`'s bytes): the header, the
 * block's transaction count, then the partial merkle tree's hashes and flag bytes (bits in walk order, lowest
 * bit first).
 */
export function merkleBlock(header: Uint8Array, txids: readonly Uint8Array[], index: number): Buffer {
  const { hashes, flags } = partialMerkleTree(txids, index);
  const flagBytes = Buffer.alloc(Math.ceil(flags.length / 8));
  flags.forEach((f, i) => {
    if (f) flagBytes[i >> 3]! |= 1 << (i & 7);
  });
  const w = new ByteWriter(
    header.length +
      4 +
      varintSize(hashes.length) +
      32 * hashes.length +
      varintSize(flagBytes.length) +
      flagBytes.length,
  );
  w.raw(header).u32(txids.length).varint(hashes.length);
  for (const h of hashes) w.raw(h);
  return w.varbytes(flagBytes).finish();
}
