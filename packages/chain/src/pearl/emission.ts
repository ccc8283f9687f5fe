/** Grains in one PRL. */
export const GRAINS_PER_PRL = 100_000_000n;
/** Everything that will ever be emitted: 2.1 billion PRL, in grains. */
export const PEARL_TOTAL_SUPPLY = 2_100_000_000n * GRAINS_PER_PRL;
/** Pearl's emission constant E = (4 × 365 × 24 × 3600) ÷ 194 (target seconds per block), integer division. */
export const PEARL_EMISSION_CONSTANT = 650_226n;

/** The formula, as /v1/analytics/supply names it. */
export const PEARL_EMISSION_FORMULA =
  'subsidy(0) = 0; subsidy(h) = ⌊T·E ÷ ((h + E)(h − 1 + E))⌋ grains, T = 2.1·10^17, E = 650,226 (no halvings; Σ₁..h ≈ T·h ÷ (h + E))';

/**
 * Block subsidy at a height in grains, exactly as pearld's CalcBlockSubsidy computes it (big integers).
 * @example pearlSubsidy(1) // 322964134063n
 */
export function pearlSubsidy(height: number | bigint): bigint {
  const h = BigInt(height);
  if (h <= 0n) return 0n;
  const e = PEARL_EMISSION_CONSTANT;
  return (PEARL_TOTAL_SUPPLY * e) / ((h + e) * (h - 1n + e));
}

/**
 * Σ subsidy(1..height): what the chain has emitted once block `height` exists. Summed exactly; the flooring
 * of each term keeps it at most `height` grains below T·h ÷ (h + E).
 */
export function pearlEmitted(height: number): bigint {
  let sum = 0n;
  for (let h = 1; h <= height; h++) sum += pearlSubsidy(h);
  return sum;
}
