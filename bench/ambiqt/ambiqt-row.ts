import { readFileSync } from "node:fs";

/**
 * One AmbiQT example (`../shared/data/ambiqt/ambiqt-dev.jsonl`, README there): a question, two gold readings in
 * Spider's SQLite/MySQL flavour, and the schema change that makes it ambiguous. Names are lower-cased, as the Spider
 * warehouse loader writes them.
 */
export type AmbiqtChange =
  /** C: `table.column` replaced by two synonym columns; query1 reads the first, query2 the second. */
  | {
      readonly type: "C";
      readonly table: string;
      readonly column: string;
      readonly synonyms: readonly [string, string];
    }
  /** T: `table` replaced by two copies under synonym names; query1 reads the first, query2 the second. */
  | { readonly type: "T"; readonly table: string; readonly synonyms: readonly [string, string] }
  /** J: `column` of `table` also kept in a new table `<table>_<column>` (`key`, `column`); query2 joins through it. */
  | {
      readonly type: "J";
      readonly table: string;
      readonly column: string;
      readonly key: string;
      readonly splitTable: string;
    }
  /**
   * P: a stored aggregate table `table` with `columns` (`sum_x`, `avg_x`, …, grouping columns); query1 computes the
   * aggregate from rows, query2 reads the stored one. `rawColumns` are the row-level columns it summarises.
   */
  | {
      readonly type: "P";
      readonly table: string;
      readonly columns: readonly string[];
      readonly rawColumns: readonly string[];
    };

export interface AmbiqtRow {
  /** Its line in the file, from 1: the stable name of the example. */
  readonly line: number;
  /** The Spider database (directory name, as in `spider-warehouse/databases`). */
  readonly database: string;
  readonly question: string;
  readonly query1: string;
  readonly query2: string;
  readonly change: AmbiqtChange;
}

const lower = (value: unknown) => String(value).toLowerCase();

/** The change of one parsed JSONL object, or why it cannot be read. */
function changeOf(value: Record<string, unknown>): AmbiqtChange | string {
  const type = value.type;
  if (type === "C" || type === "T") {
    const change = value.schema_change as { table?: unknown; column?: unknown; replaced_by?: unknown } | undefined;
    const synonyms = change?.replaced_by;
    if (!change || !Array.isArray(synonyms) || synonyms.length !== 2 || typeof change.table !== "string")
      return "schema_change needs a table and two replaced_by names";
    const pair = [lower(synonyms[0]), lower(synonyms[1])] as const;
    if (type === "T") return { type, table: lower(change.table), synonyms: pair };
    if (typeof change.column !== "string") return "schema_change needs a column";
    return { type, table: lower(change.table), column: lower(change.column), synonyms: pair };
  }
  if (type === "J") {
    const split = Object.entries((value.split_map as Record<string, unknown> | undefined) ?? {});
    const keys = Object.entries((value.primary_key as Record<string, unknown> | undefined) ?? {});
    if (split.length !== 1 || keys.length !== 1 || typeof keys[0]![1] !== "string")
      return "split_map and primary_key need one table each";
    const [table, column] = [lower(split[0]![0]), lower(split[0]![1])];
    return { type, table, column, key: lower(keys[0]![1]), splitTable: `${table}_${column}` };
  }
  if (type === "P") {
    if (
      typeof value.new_table_name !== "string" ||
      !Array.isArray(value.all_cols) ||
      !Array.isArray(value.all_raw_cols)
    )
      return "new_table_name, all_cols and all_raw_cols are needed";
    return {
      type,
      table: lower(value.new_table_name),
      columns: value.all_cols.map(lower),
      rawColumns: value.all_raw_cols.map(lower),
    };
  }
  return `unknown type ${JSON.stringify(type)}`;
}

/** The rows of an AmbiQT JSONL file that can be read, and the others with the reason. */
export function readAmbiqtRows(file: string): {
  readonly rows: AmbiqtRow[];
  readonly unreadable: ReadonlyArray<{ readonly line: number; readonly reason: string }>;
} {
  const rows: AmbiqtRow[] = [];
  const unreadable: { line: number; reason: string }[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, index) => {
      if (text.trim() === "") return;
      const line = index + 1;
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(text) as Record<string, unknown>;
      } catch {
        unreadable.push({ line, reason: "not JSON" });
        return;
      }
      const fields = [value.db_id, value.question, value.query1, value.query2];
      if (!fields.every((field) => typeof field === "string" && field.trim() !== "")) {
        unreadable.push({ line, reason: "needs db_id, question, query1 and query2" });
        return;
      }
      const change = changeOf(value);
      if (typeof change === "string") {
        unreadable.push({ line, reason: change });
        return;
      }
      rows.push({
        line,
        database: value.db_id as string,
        question: value.question as string,
        query1: value.query1 as string,
        query2: value.query2 as string,
        change,
      });
    });
  return { rows, unreadable };
}
