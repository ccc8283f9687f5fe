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
