import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsvRecords } from "@nlq/adapters";
import { selectColumnValues, type ValueColumn } from "@nlq/engine";

/** Default location of the Spider warehouse (read-only benchmark data beside the checkout). */
export const DEFAULT_SPIDER_DIRECTORY = new URL(
  "../../../../../shared/data/spider-warehouse/databases",
  import.meta.url,
).pathname;

export interface ColumnValues {
  readonly column: ValueColumn;
  readonly values: string[];
}

/**
 * The distinct values of every text column of the Spider warehouse CSVs that the value selection keeps
 * (schema = Spider database, table = CSV file). Returns [] when the directory is absent.
 */
export function loadSpiderColumnValues(directory = DEFAULT_SPIDER_DIRECTORY): ColumnValues[] {
  if (!existsSync(directory)) return [];
  const result: ColumnValues[] = [];
  for (const database of readdirSync(directory).sort()) {
    const dataDirectory = join(directory, database, "data");
    if (!existsSync(dataDirectory)) continue;
    for (const file of readdirSync(dataDirectory).sort()) {
      if (!file.endsWith(".csv")) continue;
      const [header, ...rows] = parseCsvRecords(readFileSync(join(dataDirectory, file), "utf8"));
      if (!header) continue;
      header.forEach((name, columnNumber) => {
        const distinct = [...new Set(rows.map((row) => row[columnNumber] ?? "").filter((value) => value.length > 0))];
        const selection = selectColumnValues({ name, dataType: "text" }, distinct);
        if (selection.keep)
          result.push({
            column: { schema: database, table: file.slice(0, -4), column: name },
            values: selection.values,
          });
      });
    }
  }
  return result;
}
