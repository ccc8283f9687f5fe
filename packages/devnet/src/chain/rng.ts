import { createHash } from 'node:crypto';

/** Deterministic sfc32 random stream; everything the devnet generates draws from one of these so a seed fixes the chain. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    const h = createHash('sha256')
      .update(`devnet-rng:${String(seed)}`)
      .digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    // sfc32 needs a few rounds before its output decorrelates from the seed words.
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max] inclusive. */
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** A uniformly chosen element; the array must be non-empty. */
  pick<T>(arr: readonly T[]): T {
    return arr[this.int(arr.length)] as T;
  }

  /** Index drawn proportionally to the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** n pseudo-random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    let i = 0;
    for (; i + 4 <= n; i += 4) out.writeUInt32LE(this.u32(), i);
    for (; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }

  /** An independent stream derived from this one, so separate concerns do not shift each other's draws. */
  fork(label: string): Rng {
    return new Rng(`${label}:${this.u32()}:${this.u32()}`);
  }
}

/** Cheap deterministic filler (xorshift32) for large pseudo-random payloads such as certificate proofs. */
export function fastBytes(seed: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  let x = seed >>> 0 || 0x9e3779b9;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, i);
  }
  for (; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
