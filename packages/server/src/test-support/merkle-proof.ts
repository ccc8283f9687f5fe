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
