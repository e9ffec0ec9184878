import type { KnowledgeEntryContent } from "../metadata/knowledge-entry-input";

/** One entry an import makes, before it is stored (`KnowledgeStore.sync`): its content and where it came from. */
export interface ImportedKnowledgeEntry extends KnowledgeEntryContent {
  /** What the file calls it (a dbt node's `unique_id`, `<unique_id>.<column>`); none for a YAML entry. */
  readonly externalId?: string;
}

/** Something of a file that names a table or column the database does not have (as the importing role sees it). */
export interface UnmatchedKnowledge {
  /** The file's name for it: a dbt `unique_id` (with `.<column>` for a column). */
  readonly externalId: string;
  /** The table or column it describes as the file spells it (`analytics.orders`, `analytics.orders.total`). */
  readonly element: string;
  /** Why it was not imported ("no table analytics.orders in the database"). */
  readonly reason: string;
}

/** What a parser read from a file: the entries to store and what it could not match, reported to the user. */
export interface ImportedKnowledge {
  readonly entries: readonly ImportedKnowledgeEntry[];
  readonly unmatched: readonly UnmatchedKnowledge[];
}

/** A table of the database as an import matches against it: schema, name and column names as PostgreSQL spells them. */
export interface DatabaseTable {
  readonly schema: string;
  readonly name: string;
  readonly columns: readonly string[];
}

/** Finds tables and columns case-insensitively, answering with the database's spelling. */
export class DatabaseElements {
  private readonly tables = new Map<string, DatabaseTable>();

  constructor(tables: readonly DatabaseTable[]) {
    for (const table of tables) this.tables.set(`${table.schema}.${table.name}`.toLowerCase(), table);
  }

  /** `schema.table` as the database spells it, or undefined. */
  table(schema: string, name: string): string | undefined {
    const table = this.tables.get(`${schema}.${name}`.toLowerCase());
    return table ? `${table.schema}.${table.name}` : undefined;
  }

  /** `schema.table.column` as the database spells it, or undefined. */
  column(schema: string, name: string, column: string): string | undefined {
    const table = this.tables.get(`${schema}.${name}`.toLowerCase());
    const found = table?.columns.find((candidate) => candidate.toLowerCase() === column.toLowerCase());
    return table && found !== undefined ? `${table.schema}.${table.name}.${found}` : undefined;
  }
}

/**
 * The entries with names made distinct per kind (the store keeps one entry per author, kind and name): a second
 * `ADV` becomes `ADV (2)`. Compared as the store compares names: case and inner spaces ignored.
 */
export function withDistinctNames(entries: readonly ImportedKnowledgeEntry[]): ImportedKnowledgeEntry[] {
  const used = new Set<string>();
  const key = (kind: string, name: string) => `${kind}\u0000${name.trim().replace(/\s+/g, " ").toLowerCase()}`;
  return entries.map((entry) => {
    let name = entry.name;
    for (let count = 2; used.has(key(entry.kind, name)); count++) name = `${entry.name} (${count})`;
    used.add(key(entry.kind, name));
    return name === entry.name ? entry : { ...entry, name };
  });
}
