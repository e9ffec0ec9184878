import type { ExternalDescriptions } from "./external-descriptions";

interface DefogColumn {
  readonly column_name?: unknown;
  readonly column_description?: unknown;
}

/**
 * defog-data's `<db>.json`: `{ "table_metadata": { "<table>": [{ "column_name", "data_type", "column_description" }] },
 * "glossary": "..." }`. Columns with an empty description are dropped; the glossary (free text about the whole
 * database) is not a table or column description and is ignored.
 */
export function parseDefogDescription(text: string): ExternalDescriptions {
  const parsed = JSON.parse(text) as { table_metadata?: Record<string, readonly DefogColumn[]> };
  const metadata = parsed.table_metadata ?? {};
  const columns = Object.entries(metadata).flatMap(([table, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: DefogColumn) => {
      const column = typeof entry.column_name === "string" ? entry.column_name.trim() : "";
      const description = typeof entry.column_description === "string" ? entry.column_description.trim() : "";
      return column !== "" && description !== "" ? [{ table, column, description }] : [];
    }),
  );
  return { tables: [], columns };
}
