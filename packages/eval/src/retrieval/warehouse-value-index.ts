import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseCsvRecords } from "@nlq/adapters";
import {
  type SchemaColumn,
  schemaColumnKey,
  selectColumnValues,
  type ValueIndex,
  ValueIndexBuilder,
} from "@nlq/engine";

interface WarehouseColumn {
  readonly name: string;
  readonly dataType: string;
  isPrimaryKey: boolean;
  isForeignKey: boolean;
}

/** Tables of one Spider warehouse `schema.sql` (MySQL DDL): column types, primary and foreign key columns. */
export function parseWarehouseSchema(sql: string): Map<string, Map<string, WarehouseColumn>> {
  const tables = new Map<string, Map<string, WarehouseColumn>>();
  for (const block of sql.split(/CREATE TABLE /i).slice(1)) {
    const name = /^`[^`]+`\.`([^`]+)`/.exec(block)?.[1];
    if (!name) continue;
    const columns = new Map<string, WarehouseColumn>();
    for (const line of block.split("\n").slice(1)) {
      const column = /^\s*`([^`]+)`\s+([A-Za-z]+)/.exec(line);
      if (column) {
        columns.set(column[1]!.toLowerCase(), {
          name: column[1]!,
          dataType: column[2]!.toLowerCase(),
          isPrimaryKey: false,
          isForeignKey: false,
        });
        continue;
      }
      const key = /^\s*(PRIMARY|FOREIGN) KEY \(([^)]*)\)/i.exec(line);
      if (!key) continue;
      for (const keyColumn of key[2]!.split(",").map((part) => part.trim().replace(/`/g, "").toLowerCase())) {
        const found = columns.get(keyColumn);
        if (!found) continue;
        if (key[1]!.toUpperCase() === "PRIMARY") found.isPrimaryKey = true;
        else found.isForeignKey = true;
      }
    }
    tables.set(name.toLowerCase(), columns);
  }
  return tables;
}

/**
 * A value index over the rows of the Spider warehouse (`databases/<db>/schema.sql` and `data/<table>.csv`), for the
 * columns of a retrieval corpus (matched lower case as `db.table.column`), chosen by the live indexer's rules
 * (`selectColumnValues`: text columns, no keys, no numbers or dates). Index columns are the corpus's own names
 * (`schema` = database), so a hit maps back to a corpus column by `schemaColumnKey`. Databases absent from the
 * corpus are not read.
 */
export async function buildWarehouseValueIndex(
  warehouseDirectory: string,
  corpus: readonly SchemaColumn[],
): Promise<{ index: ValueIndex; columns: number; values: number }> {
  const wanted = new Map(corpus.map((column) => [schemaColumnKey(column).toLowerCase(), column]));
  const databases = new Set(corpus.map((column) => (column.database ?? "").toLowerCase()));
  const builder = new ValueIndexBuilder();
  let indexedColumns = 0;
  for (const database of (await readdir(join(warehouseDirectory, "databases"))).sort()) {
    if (!databases.has(database.toLowerCase())) continue;
    const directory = join(warehouseDirectory, "databases", database);
    const schema = parseWarehouseSchema(await readFile(join(directory, "schema.sql"), "utf8"));
    for (const [table, columns] of schema) {
      let text: string;
      try {
        text = await readFile(join(directory, "data", `${table}.csv`), "utf8");
      } catch {
        const files = await readdir(join(directory, "data")).catch(() => [] as string[]);
        const file = files.find((name) => name.toLowerCase() === `${table}.csv`);
        if (!file) continue;
        text = await readFile(join(directory, "data", file), "utf8");
      }
      const [header, ...rows] = parseCsvRecords(text);
      if (!header) continue;
      header.forEach((name, position) => {
        const corpusColumn = wanted.get(`${database}.${table}.${name}`.toLowerCase());
        const column = columns.get(name.toLowerCase());
        if (!corpusColumn || !column) return;
        const distinct = [...new Set(rows.map((row) => row[position] ?? "").filter((value) => value !== ""))];
        const selection = selectColumnValues(column, distinct);
        if (!selection.keep) return;
        builder.addColumn(
          { schema: corpusColumn.database ?? "", table: corpusColumn.table, column: corpusColumn.column },
          selection.values,
        );
        indexedColumns++;
      });
    }
  }
  const values = builder.size;
  return { index: builder.build(), columns: indexedColumns, values };
}
