import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { KnowledgeEntry } from "../contract/knowledge";

/**
 * The qualified names (`schema.table` and `schema.table.column`, unquoted) of everything in `catalog`: what a
 * knowledge entry's `references` are checked against.
 */
export function readableElementNames(catalog: Catalog): Set<string> {
  const names = new Set<string>();
  for (const table of catalog.tables) {
    const key = tableKey(table);
    names.add(key);
    for (const column of table.columns) names.add(`${key}.${column.name}`);
  }
  return names;
}

/** What of an entry names schema elements (a stored row's `reading` may be null). */
export interface KnowledgeReferences {
  readonly references: KnowledgeEntry["references"];
  readonly reading?: KnowledgeEntry["reading"] | null;
}

/**
 * The entries whose every reference names a table or column of `catalog` — which holds only what the asking role may
 * read (introspected on its session, or the index restricted to it) — in their order. An entry naming nothing (a pure
 * glossary term) is kept; one naming anything the role cannot read, or that no longer exists, is dropped whole
 * (docs/decisions/2026-12-01-readings-knowledge-and-teaching.md, rule 1). A `reading` entry's chosen and alternative
 * elements count as references too.
 */
export function readableKnowledge<Entry extends KnowledgeReferences>(
  entries: readonly Entry[],
  catalog: Catalog | ReadonlySet<string>,
): Entry[] {
  const readable = catalog instanceof Set ? catalog : readableElementNames(catalog as Catalog);
  return entries.filter((entry) => knowledgeReferences(entry).every((name) => readable.has(name)));
}

/** Every schema element an entry names: its `references`, and a reading's chosen and alternative elements. */
export function knowledgeReferences(entry: KnowledgeReferences): string[] {
  const reading = entry.reading
    ? [...entry.reading.chosen.elements, ...entry.reading.alternatives.flatMap((choice) => choice.elements)]
    : [];
  return [...new Set([...entry.references, ...reading])];
}
