import { alwaysQuoteIdentifier } from "@nlq/engine";
import { translateMysqlGold } from "@nlq/eval";
import nodeSqlParser from "node-sql-parser";
import type { AmbiqtChange } from "./ambiqt-row";
import { driftColumn, restoreKeyOrder } from "./drift-rows";
import { queryReferences } from "./gold-references";
import { AmbiqtMaterialiseError } from "./materialise-error";
import type { ChangeContext } from "./synonym-changes";
import { qualified, type TableColumn, tableColumns, tableExists } from "./warehouse-catalog";

const parser = new nodeSqlParser.Parser();

type Node = Record<string, unknown>;
const aggregateName = /^(sum|avg|min|max|count)_(.+)$/;
const numericType = /^(smallint|integer|bigint|numeric|decimal|real|double precision)\b/;

/** Every column name an expression of node-sql-parser's tree reads. */
function columnsRead(node: unknown, found: Node[] = []): Node[] {
  if (Array.isArray(node)) for (const item of node) columnsRead(item, found);
  else if (node !== null && typeof node === "object") {
    const record = node as Node;
    if (record.type === "column_ref") found.push(record);
    else for (const value of Object.values(record)) columnsRead(value, found);
  }
  return found;
}

/** The conjuncts of a WHERE tree (its top-level ANDs). */
function conjuncts(node: Node | null | undefined): Node[] {
  if (!node) return [];
  if (node.type === "binary_expr" && node.operator === "AND" && node.parentheses !== true)
    return [...conjuncts(node.left as Node), ...conjuncts(node.right as Node)];
  return [node];
}

const columnRef = (table: string | null, column: string): Node => ({ type: "column_ref", table, column });
const aggregate = (name: string, expr: Node): Node => ({ type: "aggr_func", name, args: { expr }, over: null });

interface FromTable {
  readonly table: string;
  readonly alias?: string;
  readonly columns: readonly TableColumn[];
}

/**
 * The stored table's SELECT (PostgreSQL), from the first reading that computes the aggregate: its FROM and joins as
 * they are; a grouping column for each stored column that is a real column of those tables; `sum_x`, `avg_x`,
 * `min_x`, `max_x`, `count_x` over column x and `number` as `count(*)`; the first reading's filters on other columns
 * kept (a filter on a grouping column is left to the second reading). Sums and averages of a non-numeric column are
 * left out unless the second reading reads them. Returns the SELECT and the table whose rows it summarises.
 */
async function storedAggregateSelect(
  context: ChangeContext,
  change: Extract<AmbiqtChange, { type: "P" }>,
  computing: string,
): Promise<{ select: string; summarised: FromTable; column?: TableColumn }> {
  let tree: Node;
  try {
    const parsed = parser.astify(computing, { database: "MySQL" });
    tree = (Array.isArray(parsed) ? parsed[0] : parsed) as unknown as Node;
  } catch (error) {
    throw new AmbiqtMaterialiseError(`the first reading does not parse: ${(error as Error).message.split("\n")[0]}`);
  }
  const from = (tree.from as Node[] | null) ?? [];
  if (tree.type !== "select" || from.length === 0 || from.some((item) => typeof item.table !== "string"))
    throw new AmbiqtMaterialiseError("the first reading is not a SELECT over tables");
  const tables: FromTable[] = [];
  for (const item of from) {
    const table = String(item.table).toLowerCase();
    const columns = await tableColumns(context.client, context.schema, table);
    tables.push({ table, ...(typeof item.as === "string" ? { alias: item.as.toLowerCase() } : {}), columns });
  }
  const refs = columnsRead(tree);
  const resolve = (name: string) => {
    const written = refs.find((ref) => String(ref.column).toLowerCase() === name);
    const qualifier = typeof written?.table === "string" ? written.table.toLowerCase() : undefined;
    const owner =
      tables.find((table) => qualifier !== undefined && (table.alias ?? table.table) === qualifier) ??
      tables.find((table) => table.columns.some((column) => column.name === name));
    const column = owner?.columns.find((item) => item.name === name);
    if (!owner || !column) return undefined;
    return { owner, column, expr: columnRef(tables.length > 1 ? (owner.alias ?? owner.table) : null, name) };
  };
  const readBySecond = new Set(queryReferences(context.golds[1]).columns.map((column) => column.column));
  const names = [...new Set([...change.columns, ...readBySecond])].filter((name) => name !== change.table);
  const grouping: Node[] = [];
  const aggregates: Node[] = [];
  const groups: Node[] = [];
  const keys = new Set<string>();
  let summarised: { owner: FromTable; column: TableColumn } | undefined;
  for (const name of names) {
    const key = resolve(name);
    if (key) {
      grouping.push({ expr: key.expr, as: name });
      groups.push(key.expr);
      keys.add(name);
      continue;
    }
    const match = aggregateName.exec(name);
    const raw = match ? resolve(match[2]!) : undefined;
    if (match && raw) {
      const operation = match[1]!;
      if ((operation === "sum" || operation === "avg") && !numericType.test(raw.column.type) && !readBySecond.has(name))
        continue;
      aggregates.push({ expr: aggregate(operation.toUpperCase(), raw.expr), as: name });
      summarised ??= raw;
    } else if (name === "number") {
      aggregates.push({ expr: aggregate("COUNT", { type: "star", value: "*" }), as: name });
    } else if (change.columns.includes(name)) {
      throw new AmbiqtMaterialiseError(`stored column ${name} matches no column of the first reading's tables`);
    }
  }
  const kept = conjuncts(tree.where as Node | null).filter(
    (condition) => !columnsRead(condition).some((ref) => keys.has(String(ref.column).toLowerCase())),
  );
  const where = kept.reduce<Node | null>(
    (left, right) => (left === null ? right : { type: "binary_expr", operator: "AND", left, right }),
    null,
  );
  const summary = {
    ...tree,
    distinct: null,
    // Grouping columns first, as a summary table lists them.
    columns: [...grouping, ...aggregates],
    where,
    groupby: groups.length === 0 ? null : { columns: groups, modifiers: [] },
    having: null,
    // A summary is stored in the order of its groups.
    orderby: groups.length === 0 ? null : groups.map((expr) => ({ expr, type: "ASC" })),
    limit: null,
  };
  const translated = translateMysqlGold(parser.sqlify(summary as never, { database: "MySQL" }));
  if (!translated.ok) throw new AmbiqtMaterialiseError(translated.error);
  const target = summarised ?? { owner: tables[0]! };
  return {
    select: translated.sql,
    summarised: target.owner,
    ...("column" in target && target.column ? { column: target.column } : {}),
  };
}

/**
 * P, a stored aggregate a little behind its rows: the table AmbiQT names, created as `storedAggregateSelect` over the
 * data as it was before the latest rows of the summarised table arrived (the last rows in storage order, held out
 * while the table is computed and put back after, with foreign-key triggers off for the moment:
 * `session_replication_role = replica`, so the loader needs a superuser), after which some of those rows' values
 * changed (they drift in the summarised column). The first reading computes from today's rows, the second reads the
 * stored figures. A summarised key column does not drift (the late rows alone make the difference).
 */
export async function applyStoredAggregate(
  context: ChangeContext,
  change: Extract<AmbiqtChange, { type: "P" }>,
  computing: string,
): Promise<string> {
  const { client, schema, random } = context;
  if (await tableExists(client, schema, change.table))
    throw new AmbiqtMaterialiseError(`${schema} already has a table ${change.table}`);
  const { select, summarised, column } = await storedAggregateSelect(context, change, computing);
  const source = qualified(schema, summarised.table);
  const rows = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${source}`)).rows[0]!.n);
  const late = Math.min(rows - 1, Math.max(1, Math.round((rows * context.share) / 2)));
  await client.query("SET LOCAL session_replication_role = replica");
  await client.query(
    `CREATE TEMP TABLE ambiqt_late ON COMMIT DROP AS
       SELECT * FROM ${source} WHERE ctid IN (SELECT ctid FROM ${source} ORDER BY ctid DESC LIMIT ${late}) ORDER BY ctid`,
  );
  await client.query(
    `DELETE FROM ${source} WHERE ctid IN (SELECT ctid FROM ${source} ORDER BY ctid DESC LIMIT ${late})`,
  );
  try {
    await client.query(`CREATE TABLE ${qualified(schema, change.table)} AS ${select}`);
  } catch (error) {
    throw new AmbiqtMaterialiseError(`the stored table does not compute: ${(error as Error).message}`, {
      cause: error,
    });
  }
  await client.query(`INSERT INTO ${source} SELECT * FROM ambiqt_late`);
  await client.query("DROP TABLE ambiqt_late");
  await client.query("SET LOCAL session_replication_role = origin");
  // A key column never drifts in place (its values identify rows): the late rows alone make the summary stale.
  const changed =
    column && !column.key
      ? await driftColumn(client, {
          schema,
          table: summarised.table,
          column: column.name,
          type: column.type,
          share: context.share / 2,
          random,
        })
      : undefined;
  await restoreKeyOrder(client, schema, summarised.table);
  return `${change.table} stored from ${summarised.table} before its last ${late} of ${rows} rows arrived${changed ? `; ${changed.changed} of its ${changed.of} values of ${column!.name} changed since` : ""}; stored as ${alwaysQuoteIdentifier(change.table)} AS ${select}`;
}
