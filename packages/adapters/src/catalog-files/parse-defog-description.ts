import type { ExternalDescriptions } from "./external-descriptions";

interface DefogColumn {
  readonly column_name?: unknown;
  readonly column_description?: unknown;
}

/**
 * defog-data's `<db>.json`: `{ "table_metadata": { "<table>": [{ "column_name", "data_type", "column_description" }] },
 * "glossary": "..." }`. Columns with an empty description are dropped; the glossary (free text about the whole
 * database) is no table or column description: it is returned as a glossary of `source`, which `nlq index` keeps as
 * knowledge entries (`glossaryKnowledge`).
 */
export function parseDefogDescription(text: string, source = "defog.json"): ExternalDescriptions {
  const parsed = JSON.parse(text) as { table_metadata?: Record<string, readonly DefogColumn[]>; glossary?: unknown };
  const metadata = parsed.table_metadata ?? {};
  const columns = Object.entries(metadata).flatMap(([table, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: DefogColumn) => {
      const column = typeof entry.column_name === "string" ? entry.column_name.trim() : "";
      const description = typeof entry.column_description === "string" ? entry.column_description.trim() : "";
      return column !== "" && description !== "" ? [{ table, column, description }] : [];
    }),
  );
  const glossary = typeof parsed.glossary === "string" ? parsed.glossary.trim() : "";
  return { tables: [], columns, ...(glossary === "" ? {} : { glossaries: [{ source, text: glossary }] }) };
}
