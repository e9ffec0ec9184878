import { base, de, en, en_CA, en_GB, en_US, Faker, fr, pt_BR } from "@faker-js/faker";
import { seededRandom } from "@nlq/engine";

/**
 * Seeded randomness for the demo generator. Numbers come from a small self-contained PRNG (mulberry32), so
 * distributions do not change when faker changes its internals; faker (seeded from the same seed) only supplies
 * names and words.
 */
export interface DemoRandom {
  /** Uniform float in [0, 1). */
  float(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** True with probability `probability`. */
  chance(probability: number): boolean;
  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T;
  /** An element chosen with probability proportional to its weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T;
  /** Normally distributed number (Box-Muller). */
  normal(mean: number, standardDeviation: number): number;
  /** Faker instance for a country code ('US', 'GB', 'DE', 'FR', 'CA', 'BR'); 'US' for anything else. */
  fakerFor(country: string): Faker;
}

/** Creates the seeded randomness; the same seed gives the same sequence. */
export function createDemoRandom(seed: number): DemoRandom {
  const float = seededRandom(seed);
  const locales: Record<string, Faker> = {
    US: new Faker({ locale: [en_US, en, base] }),
    GB: new Faker({ locale: [en_GB, en, base] }),
    DE: new Faker({ locale: [de, en, base] }),
    FR: new Faker({ locale: [fr, en, base] }),
    CA: new Faker({ locale: [en_CA, en, base] }),
    BR: new Faker({ locale: [pt_BR, en, base] }),
  };
  let offset = 0;
  for (const faker of Object.values(locales)) faker.seed(seed + offset++);
  const int = (min: number, max: number): number => min + Math.floor(float() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(float() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  };
  return {
    float,
    int,
    chance: (probability) => float() < probability,
    pick,
    weighted: (items) => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let remaining = float() * total;
      for (const [item, weight] of items) {
        remaining -= weight;
        if (remaining < 0) return item;
      }
      const last = items[items.length - 1];
      if (last === undefined) throw new Error("weighted pick from an empty list");
      return last[0];
    },
    normal: (mean, standardDeviation) => {
      const u = 1 - float();
      const v = float();
      return mean + standardDeviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    fakerFor: (country) => locales[country] ?? (locales.US as Faker),
  };
}

/**
 * Samples indexes 0..count-1 with Zipf-like popularity: index i has weight 1 / (i + 1)^exponent.
 * Callers shuffle what the indexes map to, so popularity is not tied to identifiers.
 */
export function createZipfSampler(random: DemoRandom, count: number, exponent: number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let index = 0; index < count; index++) {
    total += 1 / (index + 1) ** exponent;
    cumulative.push(total);
  }
  return () => {
    const target = random.float() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

/** A deterministic Fisher-Yates shuffle (returns a new array). */
export function shuffled<T>(random: DemoRandom, items: readonly T[]): T[] {
  const result = [...items];
  for (let index = result.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [result[index], result[other]] = [result[other] as T, result[index] as T];
  }
  return result;
}

/** Rounds to cents (2 decimals) without floating-point drift in the rendered text. */
export function roundMoney(amount: number): number {
  return Math.round(amount * 100) / 100;
}
