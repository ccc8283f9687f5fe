/** A block as getchaintips needs it. */
export interface TipBlock {
  hash: string;
  height: number;
  prevHash: string | undefined;
}

/** One entry of pearld's getchaintips (btcd's GetChainTipsResult). */
export interface ChainTip {
  height: number;
  hash: string;
  branchlen: number;
  status: 'active' | 'valid-fork';
}

/**
 * pearld's getchaintips: every block nothing builds on, the best tip `active` (branch length 0), the others
 * `valid-fork` with the length of their branch off the best chain; lowest height first, as the node listed them.
 */
export function chainTips(blocks: Iterable<TipBlock>, isBest: (hash: string) => boolean): ChainTip[] {
  const byHash = new Map<string, TipBlock>();
  const parents = new Set<string>();
  for (const b of blocks) {
    byHash.set(b.hash, b);
    if (b.prevHash) parents.add(b.prevHash);
  }
  const out: ChainTip[] = [];
  for (const b of byHash.values()) {
    if (parents.has(b.hash)) continue;
    let fork: TipBlock | undefined = b;
    while (fork && !isBest(fork.hash)) fork = fork.prevHash ? byHash.get(fork.prevHash) : undefined;
    const best = isBest(b.hash);
    out.push({
      height: b.height,
      hash: b.hash,
      branchlen: best ? 0 : b.height - (fork?.height ?? -1),
      status: best ? 'active' : 'valid-fork',
    });
  }
  return out.sort((a, b) => a.height - b.height || a.hash.localeCompare(b.hash));
}
