import { createHash } from 'node:crypto';

// Proofs are checked here without the code that built them: SHA-256 from node:crypto, the branch walked by hand.

/** Double SHA-256. */
export const sha256d = (b: Buffer) =>
  createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

/** A display-order hex hash in internal byte order. */
export const internal = (displayHex: string) => Buffer.from(displayHex, 'hex').reverse();

/** Internal-order bytes as a display-order hex hash. */
export const display = (b: Buffer) => Buffer.from(b).reverse().toString('hex');

/** The root a txid hashes up to through an esplora-style proof (siblings in display order, leaf level first). */
export function rootOf(txid: string, merkle: string[], pos: number): string {
  let h = internal(txid);
  merkle.forEach((sibling, level) => {
    const s = internal(sibling);
    h = sha256d((pos >> level) & 1 ? Buffer.concat([s, h]) : Buffer.concat([h, s]));
  });
  return display(h);
}

/**
 * What a `merkleblock` (`gettxoutproof`'s bytes after a header of `headerBytes`) proves, walked by hand (BIP37):
 * the block's transaction count, the root its partial merkle tree hashes to and the txids it marks matched.
 */
export function merkleBlockProves(block: Buffer, headerBytes: number) {
  let at = headerBytes;
  const count = block.readUInt32LE(at);
  at += 4;
  const varint = () => {
    const first = block[at++]!;
    if (first < 0xfd) return first;
    const n = first === 0xfd ? block.readUInt16LE(at) : block.readUInt32LE(at);
    at += first === 0xfd ? 2 : 4;
    return n;
  };
  const hashes = Array.from({ length: varint() }, () => {
    const h = block.subarray(at, at + 32);
    at += 32;
    return h;
  });
  const flags = block.subarray(at + 1, at + 1 + varint());
  const width = (height: number) => (count + (1 << height) - 1) >> height;
  let height = 0;
  while (width(height) > 1) height++;
  let bit = 0;
  let used = 0;
  const matched: string[] = [];
  const walk = (h: number, pos: number): Buffer => {
    const flag = (flags[bit >> 3]! >> (bit & 7)) & 1;
    bit++;
    if (h === 0 || !flag) {
      const hash = Buffer.from(hashes[used++]!);
      if (h === 0 && flag) matched.push(display(hash));
      return hash;
    }
    const left = walk(h - 1, pos * 2);
    const right = pos * 2 + 1 < width(h - 1) ? walk(h - 1, pos * 2 + 1) : left;
    return sha256d(Buffer.concat([left, right]));
  };
  const root = display(walk(height, 0));
  return { count, root, matched, hashesUsed: used === hashes.length };
}
