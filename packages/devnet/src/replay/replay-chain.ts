import {
  ByteReader,
  blockWork,
  type DecodedPearlBlock,
  decodePearlBlock,
  PEARL_HEADER_SIZE,
  pearlHeaderHash,
  readCertificate,
} from '@explorer/chain';

/** One given block: its bytes as a node stores them and where it stands in the block tree. */
export interface ReplayBlock {
  hash: string;
  /** undefined for genesis (pearld names an all-zero parent). */
  prevHash: string | undefined;
  height: number;
  /** Cumulative work up to and including this block. */
  chainwork: bigint;
  bytes: Buffer;
  /** Position in the given list: the order the node learns of the blocks. */
  seq: number;
  decoded: DecodedPearlBlock;
}

const ZERO_HASH = '0'.repeat(64);

/** The hash of a Pearl block's header, read after its certificate. */
function hashOf(bytes: Buffer): string {
  const r = new ByteReader(bytes);
  readCertificate(r);
  return pearlHeaderHash(bytes.subarray(r.offset, r.offset + PEARL_HEADER_SIZE));
}

/**
 * Given blocks, revealed one after the other in the given order as a node would learn of them. The best chain
 * is the revealed branch with the most work; between equal ones the first revealed stays, as pearld keeps its
 * tip until a branch with more work arrives. Blocks revealed later that outwork it reorganise the chain.
 */
export class ReplayChain {
  readonly blocks: ReplayBlock[];
  private readonly byHash = new Map<string, ReplayBlock>();
  private revealed = 0;
  private tipBlock: ReplayBlock | undefined;
  /** The best chain, by height. */
  best: ReplayBlock[] = [];
  private txIndex = new Map<string, { block: ReplayBlock; index: number }>();

  /** @throws Error when a block does not decode or comes before its parent. */
  constructor(hexes: readonly string[]) {
    this.blocks = hexes.map((hex, seq) => {
      const bytes = Buffer.from(hex, 'hex');
      if (bytes.length * 2 !== hex.length) throw new Error(`block ${seq} is not hex`);
      const hash = hashOf(bytes);
      const decoded = decodePearlBlock(bytes, hash);
      const prev = decoded.header.prevHash;
      const parent = prev === ZERO_HASH ? undefined : this.byHash.get(prev);
      if (prev !== ZERO_HASH && !parent)
        throw new Error(`block ${seq} (${hash}) comes before its parent ${prev}`);
      const work = blockWork(decoded.header.bits);
      const block: ReplayBlock = {
        hash,
        prevHash: parent?.hash,
        height: parent ? parent.height + 1 : 0,
        chainwork: (parent?.chainwork ?? 0n) + work,
        bytes,
        seq,
        decoded,
      };
      if (this.byHash.has(hash)) throw new Error(`block ${seq} (${hash}) is given twice`);
      this.byHash.set(hash, block);
      return block;
    });
    if (this.blocks.length === 0 || this.blocks[0]!.prevHash !== undefined)
      throw new Error('the first block given must be a genesis block');
  }

  /** How many blocks the node knows of. */
  get revealedCount(): number {
    return this.revealed;
  }

  /** Blocks given but not yet revealed. */
  get remaining(): number {
    return this.blocks.length - this.revealed;
  }

  /** The best chain's tip. */
  get tip(): ReplayBlock {
    return this.tipBlock as ReplayBlock;
  }

  /** Reveals the next n blocks (fewer when fewer are left) and returns them. */
  reveal(n: number): ReplayBlock[] {
    const out = this.blocks.slice(this.revealed, this.revealed + Math.max(0, n));
    this.revealed += out.length;
    let tip = this.tipBlock;
    for (const b of out) if (!tip || b.chainwork > tip.chainwork) tip = b;
    if (tip !== this.tipBlock) this.setTip(tip as ReplayBlock);
    return out;
  }

  /** A revealed block by hash. */
  get(hash: string): ReplayBlock | undefined {
    const b = this.byHash.get(hash);
    return b && b.seq < this.revealed ? b : undefined;
  }

  /** The revealed blocks. */
  known(): ReplayBlock[] {
    return this.blocks.slice(0, this.revealed);
  }

  /** Whether a block is on the best chain. */
  isBest(b: ReplayBlock): boolean {
    return this.best[b.height] === b;
  }

  /** A best-chain transaction by txid. */
  locate(txid: string): { block: ReplayBlock; index: number } | undefined {
    return this.txIndex.get(txid);
  }

  private setTip(tip: ReplayBlock): void {
    this.tipBlock = tip;
    const best: ReplayBlock[] = new Array(tip.height + 1);
    for (let b: ReplayBlock | undefined = tip; b; b = b.prevHash ? this.byHash.get(b.prevHash) : undefined)
      best[b.height] = b;
    this.best = best;
    this.txIndex = new Map();
    for (const b of best) {
      for (const [index, t] of b.decoded.txs.entries()) this.txIndex.set(t.txid, { block: b, index });
    }
  }
}
