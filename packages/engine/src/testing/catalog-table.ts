import type { TableInfo } from "../catalog/catalog-types";

/**
 * Test helper: a catalog table with nullable `text` columns named `columns`, no comment and no keys; `extra`
 * overrides any field (keys, kind, comment, columns).
 */
export function catalogTable(
  schema: string,
  name: string,
  columns: readonly string[],
  extra: Partial<TableInfo> = {},
): TableInfo {
  return {
    schema,
    name,
    kind: "table",
    comment: null,
    columns: columns.map((column) => ({ name: column, dataType: "text", nullable: true, comment: null })),
    primaryKey: [],
    foreignKeys: [],
    ...extra,
  };
}
