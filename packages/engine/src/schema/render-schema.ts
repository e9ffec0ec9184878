import type { Catalog, ColumnInfo, TableInfo } from "../catalog/catalog-types";
import { qualifiedName, quoteIdentifier } from "../sql/quote-identifier";

const keywords: Record<TableInfo["kind"], string> = {
  table: "CREATE TABLE",
  "partitioned-table": "CREATE TABLE",
  view: "CREATE VIEW",
  "materialized-view": "CREATE MATERIALIZED VIEW",
  "foreign-table": "CREATE FOREIGN TABLE",
};

/** Enum labels listed at most per column. */
const maxEnumValues = 30;

function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''").replace(/\s+/g, " ")}'`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function columnNote(column: ColumnInfo): string {
  const parts: string[] = [];
  if (column.comment) parts.push(oneLine(column.comment));
  if (column.enumValues && column.enumValues.length > 0) {
    const shown = column.enumValues.slice(0, maxEnumValues).map(sqlString).join(", ");
    parts.push(`values: ${shown}${column.enumValues.length > maxEnumValues ? ", …" : ""}`);
  } else if (column.sampleValues && column.sampleValues.length > 0) {
    parts.push(`examples: ${column.sampleValues.map(sqlString).join(", ")}`);
  }
  return parts.length > 0 ? ` -- ${parts.join("; ")}` : "";
}

/** One table as DDL-like text: columns with types and NOT NULL, keys, comments and example values as `--` comments. */
export function renderTable(table: TableInfo): string {
  const lines: string[] = [];
  if (table.comment) lines.push(`-- ${oneLine(table.comment)}`);
  const body: Array<{ text: string; note: string }> = table.columns.map((column) => ({
    text: `  ${quoteIdentifier(column.name)} ${column.dataType}${column.nullable ? "" : " NOT NULL"}`,
    note: columnNote(column),
  }));
  if (table.primaryKey.length > 0) {
    body.push({ text: `  PRIMARY KEY (${table.primaryKey.map(quoteIdentifier).join(", ")})`, note: "" });
  }
  for (const key of table.foreignKeys) {
    const target = qualifiedName(key.referencedSchema, key.referencedTable);
    body.push({
      text: `  FOREIGN KEY (${key.columns.map(quoteIdentifier).join(", ")}) REFERENCES ${target} (${key.referencedColumns.map(quoteIdentifier).join(", ")})`,
      note: "",
    });
  }
  lines.push(`${keywords[table.kind]} ${qualifiedName(table.schema, table.name)} (`);
  body.forEach((line, index) => {
    lines.push(`${line.text}${index < body.length - 1 ? "," : ""}${line.note}`);
  });
  lines.push(");");
  return lines.join("\n");
}

/** The whole catalog as DDL-like text for prompts, tables in catalog order separated by blank lines. Deterministic. */
export function renderSchema(catalog: Catalog): string {
  return catalog.tables.map(renderTable).join("\n\n");
}
