import type { Catalog } from "../catalog/catalog-types";
import type { ReadingChoice } from "../contract/knowledge";
import type { ReadingKind } from "../contract/reading";

/** One thing a phrase may mean, in schema elements, with the tables its candidates need to see. */
export interface ReadingOption extends ReadingChoice {
  /** Tables (`schema.table`) the option reads, added to the selected schema for its candidates. */
  readonly tables: readonly string[];
}

/** A phrase of the question that several schema elements fit, as the reading step found it from the schema. */
export interface Ambiguity {
  readonly kind: ReadingKind;
  /** The phrase, normalised (`questionWords` joined by spaces), or the tables' names for copies the question names no word of. */
  readonly phrase: string;
  /** What it may mean, the best-fitting first (the one the selected schema already holds); at least two. */
  readonly options: readonly ReadingOption[];
  /** The schema evidence, in words. */
  readonly evidence: string;
}

/** `schema.table` shown without `public.` (the search path's default), as people write it. */
export function tableLabel(schema: string, table: string): string {
  return schema === "public" ? table : `${schema}.${table}`;
}

/** `«name»`, as instructions and notices quote a phrase. */
export function quotePhrase(phrase: string): string {
  return `«${phrase}»`;
}

/** What every detector of the reading step looks at. */
export interface ReadingSearch {
  /** The question's words (`questionWords`). */
  readonly words: readonly string[];
  /** The schema the generators would see (the schema selector's subset, or everything). */
  readonly selected: Catalog;
  /** Everything the asking role may read: options may come from beyond the selected schema. */
  readonly catalog: Catalog;
}
