import { parseSync } from "libpg-query";

/** A column a query names: its name and the qualifier it was written with (`t1` of `t1.age`), if any. */
export interface ColumnReference {
  readonly column: string;
  readonly qualifier?: string;
}

/** What a PostgreSQL query names, from its parse tree: tables (every FROM, subqueries included) and columns. */
export interface QueryReferences {
  readonly tables: ReadonlySet<string>;
  readonly columns: readonly ColumnReference[];
}

function visit(node: unknown, found: { tables: Set<string>; columns: ColumnReference[] }): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, found);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  const rangeVar = record.RangeVar as { relname?: string } | undefined;
  if (rangeVar?.relname !== undefined) found.tables.add(rangeVar.relname);
  const columnRef = record.ColumnRef as { fields?: Array<{ String?: { sval?: string } }> } | undefined;
  if (columnRef?.fields !== undefined) {
    const names = columnRef.fields.map((field) => field.String?.sval);
    const column = names.at(-1);
    if (column !== undefined) {
      const qualifier = names.length > 1 ? names.at(-2) : undefined;
      found.columns.push(qualifier === undefined ? { column } : { column, qualifier });
    }
  }
  for (const value of Object.values(record)) visit(value, found);
}

/** The tables and columns a query names; empty when PostgreSQL's parser rejects it. Needs `loadSqlParser()`. */
export function queryReferences(sql: string): QueryReferences {
  const found = { tables: new Set<string>(), columns: [] as ColumnReference[] };
  try {
    visit(parseSync(sql), found);
  } catch {
    // Unparsable: nothing named (running it reports the error).
  }
  return found;
}
