/**
 * A small deterministic PRNG (mulberry32) for seeded property tests: a
 * failing seed replays the same case.
 *
 * @module
 */

/**
 * A generator of numbers in [0, 1) determined by `seed`.
 *
 * @param seed any integer
 * @returns the next number on each call
 */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
