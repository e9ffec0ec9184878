import { type Catalog, tableKey } from "../catalog/catalog-types";
import type { KnowledgeEntry } from "../contract/knowledge";

/**
 * The description entries that apply to `catalog`, by the element they describe (`schema.table` or
 * `schema.table.column`, the entry's name): for each element the role's own entry wins over a shared one, then the
 * most recently changed.
 */
export function descriptionsByElement(
  entries: readonly KnowledgeEntry[],
  catalog: Catalog,
): Map<string, KnowledgeEntry> {
  const elements = new Set<string>();
  for (const table of catalog.tables) {
    elements.add(tableKey(table));
    for (const column of table.columns) elements.add(`${tableKey(table)}.${column.name}`);
  }
  const chosen = new Map<string, KnowledgeEntry>();
  for (const entry of entries) {
    if (entry.kind !== "description" || !elements.has(entry.name)) continue;
    const current = chosen.get(entry.name);
    if (!current || preferred(entry, current)) chosen.set(entry.name, entry);
  }
  return chosen;
}

function preferred(candidate: KnowledgeEntry, current: KnowledgeEntry): boolean {
  if (candidate.sharedWithAllRoles !== current.sharedWithAllRoles) return !candidate.sharedWithAllRoles;
  return candidate.updatedAt > current.updatedAt;
}

/**
 * `catalog` with the descriptions people wrote in place of the tables' and columns' comments (`COMMENT ON`, read live
 * on every question, stays where no entry describes the element): they reach every prompt that shows the schema, and
 * schema selection reads them too.
 */
export function withKnowledgeDescriptions(
  catalog: Catalog,
  descriptions: ReadonlyMap<string, KnowledgeEntry>,
): Catalog {
  if (descriptions.size === 0) return catalog;
  return {
    ...catalog,
    tables: catalog.tables.map((table) => {
      const key = tableKey(table);
      const tableEntry = descriptions.get(key);
      let changed = tableEntry !== undefined;
      const columns = table.columns.map((column) => {
        const entry = descriptions.get(`${key}.${column.name}`);
        if (!entry) return column;
        changed = true;
        return { ...column, comment: entry.text };
      });
      return changed ? { ...table, comment: tableEntry ? tableEntry.text : table.comment, columns } : table;
    }),
  };
}

/** The described elements that are in `selected` (what the generators were shown), as used entries. */
export function descriptionsShown(
  descriptions: ReadonlyMap<string, KnowledgeEntry>,
  selected: Catalog,
): KnowledgeEntry[] {
  const shown: KnowledgeEntry[] = [];
  const seen = new Set<string>();
  for (const table of selected.tables) {
    const key = tableKey(table);
    for (const element of [key, ...table.columns.map((column) => `${key}.${column.name}`)]) {
      const entry = descriptions.get(element);
      if (entry && !seen.has(entry.id)) {
        seen.add(entry.id);
        shown.push(entry);
      }
    }
  }
  return shown;
}
