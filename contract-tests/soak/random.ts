/**
 * A seeded source of choices for the soak (mulberry32): the same seed makes the same
 * choices, so a run that found a violation can be told apart from its neighbours. The
 * interleaving of many clients still varies from run to run; the seed fixes what each
 * client and the nemesis decide.
 */

/** Choices drawn from one seed. */
export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One of `items`. */
  pick<T>(items: readonly T[]): T;
  /** One key of `weights`, each as likely as its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** A copy of `items` in a random order. */
  shuffled<T>(items: readonly T[]): T[];
  /** A new source, seeded from this one (one per client, so clients do not share a stream). */
  fork(): Random;
}

/** A source seeded with `seed`. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    weighted(weights) {
      const entries = Object.entries(weights) as Array<[keyof typeof weights, number]>;
      let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [key, weight] of entries) if ((roll -= weight) < 0) return key;
      return entries.at(-1)![0];
    },
    shuffled(items) {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
    fork: () => seeded(int(0, 2 ** 31)),
  };
}
