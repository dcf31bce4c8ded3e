// mulberry32: a small seeded uniform generator from a 32-bit seed, for retry jitter and bootstrap draws
// (deterministic under test, no Math.random()).

/**
 * A function yielding floats in [0, 1) from a 32-bit `seed` (mulberry32); the same seed, the same stream.
 * The row bootstrap's loop (analysis/bootstrap.ts) inlines this same step for speed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
