/**
 * The genesis time that makes a history of `blocks` blocks, `targetSpacing` seconds apart on average, end about
 * `nowSeconds`: a devnet started now looks synced rather than years behind. The actual gaps are random draws
 * around the target, so the tip lands near now, not on it.
 * @example createDevnet({ blocks: 500, genesisTime: genesisTimeEndingAt(Date.now() / 1000, 500, 150) })
 */
export function genesisTimeEndingAt(nowSeconds: number, blocks: number, targetSpacing: number): number {
  return Math.max(0, Math.floor(nowSeconds) - blocks * targetSpacing);
}
