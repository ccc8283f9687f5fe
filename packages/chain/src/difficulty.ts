/** The 256-bit target a compact `bits` value encodes (a negative or zero encoding gives 0n). */
export function compactToTarget(bits: number): bigint {
  const exp = bits >>> 24;
  const mant = bits & 0x007fffff;
  if (mant === 0 || (bits & 0x00800000) !== 0) return 0n;
  return exp <= 3 ? BigInt(mant >>> (8 * (3 - exp))) : BigInt(mant) << BigInt(8 * (exp - 3));
}

/** The compact form of a target, as Bitcoin Core's GetCompact writes it. */
export function targetToCompact(target: bigint): number {
  let size = Math.ceil(target.toString(16).length / 2);
  let compact =
    size <= 3 ? Number(target << BigInt(8 * (3 - size))) : Number(target >> BigInt(8 * (size - 3)));
  if (compact & 0x00800000) {
    compact >>>= 8;
    size++;
  }
  return ((size << 24) | compact) >>> 0;
}

/** Expected work of one block at these bits: 2^256 ÷ (target + 1), as Core's GetBlockProof and btcd's CalcWork. */
export function blockWork(bits: number): bigint {
  const target = compactToTarget(bits);
  return target <= 0n ? 0n : (1n << 256n) / (target + 1n);
}

/** Bitcoin Core's GetDifficulty: the target of bits 0x1d00ffff over the block's, in double arithmetic. */
export function coreDifficulty(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let diff = 0x0000ffff / (bits & 0x00ffffff);
  while (shift < 29) {
    diff *= 256;
    shift++;
  }
  while (shift > 29) {
    diff /= 256;
    shift--;
  }
  return diff;
}

const SCALE = 100_000_000n;

/**
 * btcd's difficulty ratio (pearld's `difficulty`): the network's pow-limit target over the block's target as an
 * exact rational, rounded to 8 decimals (halves away from zero), then read as a float.
 * @example ratioDifficulty(0x1e010000, 0x1e010000) // 1
 */
export function ratioDifficulty(powLimitBits: number, bits: number): number {
  const max = compactToTarget(powLimitBits);
  const target = compactToTarget(bits);
  if (target <= 0n) return 0;
  const q = (max * SCALE * 2n + target) / (2n * target);
  const whole = q / SCALE;
  const frac = (q % SCALE).toString().padStart(8, '0');
  return Number(`${whole}.${frac}`);
}
