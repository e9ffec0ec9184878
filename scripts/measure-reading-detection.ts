// How often the reading step (packages/engine/src/readings/plan-readings.ts) raises a reading, measured on the schema
// alone — no database, no model: on Spider's training questions (one reading each: a raised reading is a false alarm
// unless both readings return the same rows, which this does not run) and on AmbiQT's four kinds, with each example's
// schema change applied (both gold readings among the readings raised?). The schema selector's choice is taken to be
// the gold SQL's tables (`gold`, default) or every table (`whole`).
//
//   npx tsx scripts/measure-reading-detection.ts [../shared/data] [gold|whole]
//
// Reads ../shared/data (never copied into the repository); prints one line per figure.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { planReadings, type TableInfo } from "@nlq/engine";

/** `../shared/data` (or the first argument): Spider's warehouse databases and questions, and AmbiQT. */
const root = process.argv[2] ?? "../shared/data";
/** `gold`: the schema selector's choice is the gold SQL's tables (a perfect selector); `whole`: every table. */
const mode = process.argv[3] ?? "gold";
function parseSchema(db: string): TableInfo[] {
  const text = readFileSync(join(root, "spider-warehouse/databases", db, "schema.sql"), "utf8");
  const tables: TableInfo[] = [];
  for (const match of text.matchAll(/CREATE TABLE `[^`]+`\.`([^`]+)` \(([\s\S]*?)\n\);/g)) {
    const name = match[1]!.toLowerCase();
    const columns: TableInfo["columns"][number][] = [];
    let primaryKey: string[] = [];
    const foreignKeys: TableInfo["foreignKeys"][number][] = [];
    for (const raw of match[2]!.split("\n")) {
      const line = raw.trim().replace(/,$/, "");
      const pk = /^PRIMARY KEY \((.+)\)/.exec(line);
      const fk = /^FOREIGN KEY \((.+?)\) REFERENCES `[^`]+`\.`([^`]+)` \((.+?)\)/.exec(line);
      const column = /^`([^`]+)` (\w+)/.exec(line);
      if (pk) primaryKey = pk[1]!.split(",").map((part) => part.replace(/[` ]/g, "").toLowerCase());
      else if (fk)
        foreignKeys.push({
          name: `fk${foreignKeys.length}`,
          columns: fk[1]!.split(",").map((part) => part.replace(/[` ]/g, "").toLowerCase()),
          referencedSchema: "public",
          referencedTable: fk[2]!.toLowerCase(),
          referencedColumns: fk[3]!.split(",").map((part) => part.replace(/[` ]/g, "").toLowerCase()),
        });
      else if (column) {
        const type = column[2]!.toLowerCase();
        columns.push({
          name: column[1]!.toLowerCase(),
          dataType: /int|real|float|double|decimal|numeric|number/.test(type)
            ? "integer"
            : /date|time/.test(type)
              ? "date"
              : "text",
          nullable: true,
          comment: null,
        });
      }
    }
    tables.push({ schema: "public", name, kind: "table", comment: null, columns, primaryKey, foreignKeys });
  }
  return tables;
}
const cache = new Map<string, TableInfo[]>();
const schemaOf = (db: string) => {
  if (!cache.has(db)) cache.set(db, parseSchema(db));
  return cache.get(db)!;
};
/** The schema a good selector would choose: the tables the gold SQL reads (all of them when none is found). */
function goldTables(sql: string, tables: TableInfo[]): TableInfo[] {
  const names = new Set([...sql.matchAll(/(?:from|join)\s+`?(\w+)`?/gi)].map((match) => match[1]!.toLowerCase()));
  const chosen = tables.filter((table) => names.has(table.name));
  return chosen.length > 0 ? chosen : tables;
}
const plan = (question: string, tables: TableInfo[], sql?: string) =>
  planReadings({ question, selected: { tables: sql ? goldTables(sql, tables) : tables }, catalog: { tables } });

// Single-reading questions: Spider train questions on their own databases.
const lines = readFileSync(join(root, "spider-warehouse/train_queries.csv"), "utf8").split("\n").slice(1);
let asked = 0;
let raised = 0;
const kinds = new Map<string, number>();
const examples: string[] = [];
const available = new Set(readdirSync(join(root, "spider-warehouse/databases")));
for (const line of lines) {
  const match = /^([^,]+),("(?:[^"]|"")*"|[^,]*),([\s\S]*)$/.exec(line);
  if (!match || !available.has(match[1]!)) continue;
  const question = match[2]!.replace(/^"|"$/g, "").replaceAll('""', '"');
  asked += 1;
  const { readings } = plan(question, schemaOf(match[1]!), mode === "gold" ? match[3]! : undefined);
  if (readings.length > 0) {
    raised += 1;
    kinds.set(readings[0]!.kind, (kinds.get(readings[0]!.kind) ?? 0) + 1);
    if (examples.length < 20)
      examples.push(`${match[1]} | ${question} | ${readings.map((r) => r.chosen.label).join(" / ")}`);
  }
}
console.log(
  `spider train: ${raised} of ${asked} questions raised a reading (${((100 * raised) / asked).toFixed(1)}%)`,
  Object.fromEntries(kinds),
);
for (const example of examples) console.log("  ", example);

// AmbiQT: the schema change applied, both readings among the options?
const ambiqt = readFileSync(join(root, "ambiqt/ambiqt-dev.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((row) => JSON.parse(row));
const byType = new Map<string, { total: number; both: number; any: number }>();
for (const example of ambiqt) {
  if (!available.has(example.db_id)) continue;
  let tables = schemaOf(example.db_id).map((table) => ({ ...table }));
  let wanted: string[][] = [];
  const type = example.type as string;
  if (type === "C") {
    const change = example.schema_change;
    tables = tables.map((table) => {
      if (table.name !== change.table.toLowerCase()) return table;
      const columns = table.columns.flatMap((column) =>
        column.name === change.column.toLowerCase()
          ? change.replaced_by.map((name: string) => ({ ...column, name: name.toLowerCase() }))
          : [column],
      );
      return { ...table, columns };
    });
    wanted = change.replaced_by.map((name: string) => [`public.${change.table.toLowerCase()}.${name.toLowerCase()}`]);
  } else if (type === "T") {
    const change = example.schema_change;
    const original = tables.find((table) => table.name === change.table.toLowerCase());
    if (!original) continue;
    tables = [
      ...tables.filter((table) => table !== original),
      ...change.replaced_by.map((name: string) => ({ ...original, name: name.toLowerCase() })),
    ];
    wanted = change.replaced_by.map((name: string) => [`public.${name.toLowerCase()}`]);
  } else if (type === "J") {
    const split = /join (\w+) as t2/.exec(example.query2)?.[1];
    const column = /t2\.(\w+)/.exec(example.query2)?.[1];
    const [parentName, key] = Object.entries(example.primary_key as Record<string, string>)[0]!;
    const parent = tables.find((table) => table.name === parentName.toLowerCase());
    if (!split || !column || !parent) continue;
    const original = parent.columns.find((c) => c.name === column);
    if (!original) continue;
    tables.push({
      schema: "public",
      name: split,
      kind: "table",
      comment: null,
      columns: [{ name: key.toLowerCase(), dataType: "integer", nullable: false, comment: null }, { ...original }],
      primaryKey: [key.toLowerCase()],
      foreignKeys: [],
    });
    wanted = [[`public.${parent.name}.${column}`], [`public.${split}.${column}`]];
  } else if (type === "P") {
    tables.push({
      schema: "public",
      name: example.new_table_name,
      kind: "table",
      comment: null,
      columns: example.all_cols.map((name: string) => ({ name, dataType: "integer", nullable: true, comment: null })),
      primaryKey: [],
      foreignKeys: [],
    });
    wanted = [["P"]];
  }
  // The selector's choice: the tables of Spider's own gold on the unmodified database (for table copies: the first copy).
  const original = String(example.orig_query).replace(
    new RegExp(`\\b${type === "T" ? example.schema_change.table.toLowerCase() : "\\0"}\\b`, "g"),
    type === "T" ? example.schema_change.replaced_by[0].toLowerCase() : "\\0",
  );
  const { readings } = plan(example.question, tables, mode === "gold" ? original : undefined);
  const elements = readings.map((reading) => reading.chosen.elements);
  const has = (want: string[]) =>
    want[0] === "P"
      ? readings.some((r) => r.kind === "stored-aggregate")
      : elements.some((e) => want.every((w) => e.includes(w)));
  const figures = byType.get(type) ?? { total: 0, both: 0, any: 0 };
  figures.total += 1;
  if (wanted.every(has)) figures.both += 1;
  if (readings.length > 0) figures.any += 1;
  byType.set(type, figures);
}
for (const [type, figures] of byType)
  console.log(
    `ambiqt ${type}: both readings raised ${figures.both}/${figures.total} (${((100 * figures.both) / figures.total).toFixed(0)}%), any reading ${figures.any}`,
  );
