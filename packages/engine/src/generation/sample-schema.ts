import type { Catalog } from "../catalog/catalog-types";
import { seededRandom } from "../random/seeded-random";
import { renderSchema } from "../schema/render-schema";

/**
 * Diversity of candidates (CHASE-SQL §2.3): besides the temperature, each sample of a generator sees the schema in
 * its own order. Sample 0 keeps the catalog's order; sample n > 0 shuffles the tables, and the columns within each
 * table, with a generator seeded by n, so the same sample always gets the same order (reruns and cached responses
 * agree) and different samples get different orders. Keys (primary and foreign) and every column are kept: only the
 * order changes.
 */
export function shuffleCatalogForSample(catalog: Catalog, sample: number): Catalog {
  if (sample === 0) return catalog;
  const random = seededRandom(sampleSeed(sample));
  return {
    tables: shuffled(catalog.tables, random).map((table) => ({ ...table, columns: shuffled(table.columns, random) })),
  };
}

/** The selected catalog rendered as DDL for sample `sample` (see `shuffleCatalogForSample`). */
export function renderSchemaForSample(catalog: Catalog, sample: number): string {
  return renderSchema(shuffleCatalogForSample(catalog, sample));
}

/** Spreads small sample numbers over the seed space (a multiplicative hash), so neighbouring samples differ. */
function sampleSeed(sample: number): number {
  return Math.imul(sample + 1, 0x9e3779b1) >>> 0;
}

/** Fisher–Yates on a copy. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    const item = copy[index] as T;
    copy[index] = copy[other] as T;
    copy[other] = item;
  }
  return copy;
}
