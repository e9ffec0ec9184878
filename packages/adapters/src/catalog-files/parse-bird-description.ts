import type { ExternalColumnDescription } from "./external-descriptions";
import { parseCsvRecords } from "./parse-csv-records";

function clean(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/**
 * One BIRD `database_description/<table>.csv` (header `original_column_name,column_name,column_description,
 * data_format,value_description`; header names matched case-insensitively, missing columns tolerated). The description
 * combines the expanded name (when it differs from the original), the description and the value description:
 * `"<expanded name>: <description>. Values: <value description>"`. Rows without any text are dropped.
 */
export function parseBirdDescription(table: string, text: string): ExternalColumnDescription[] {
  const [header, ...rows] = parseCsvRecords(text);
  if (!header) return [];
  const position = (name: string) => header.findIndex((field) => clean(field).toLowerCase() === name);
  const original = position("original_column_name");
  const expanded = position("column_name");
  const description = position("column_description");
  const values = position("value_description");
  const columns: ExternalColumnDescription[] = [];
  for (const row of rows) {
    const column = clean(row[Math.max(original, 0)]);
    if (column === "") continue;
    const expandedName = expanded >= 0 ? clean(row[expanded]) : "";
    const parts: string[] = [];
    const describe = description >= 0 ? clean(row[description]) : "";
    if (expandedName !== "" && expandedName.toLowerCase() !== column.toLowerCase())
      parts.push(
        describe !== "" && describe.toLowerCase() !== expandedName.toLowerCase()
          ? `${expandedName}: ${describe}`
          : expandedName,
      );
    else if (describe !== "") parts.push(describe);
    const valueDescription = values >= 0 ? clean(row[values]) : "";
    if (valueDescription !== "") parts.push(`Values: ${valueDescription}`);
    if (parts.length === 0) continue;
    columns.push({ table, column, description: parts.join(". ").replace(/\.\./g, ".") });
  }
  return columns;
}
