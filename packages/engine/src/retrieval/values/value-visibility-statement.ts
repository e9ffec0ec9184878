import { alwaysQuoteIdentifier } from "../../sql/quote-identifier";
import type { ValueColumn } from "./value-column";

/**
 * A value that may reach a prompt, to be checked against the rows the asking role can see: `exact` — some row holds
 * exactly `value` (as `column::text`); `prefix` — some row's value starts with `value` (a sample shortened with `…`).
 */
export interface ValueProbe extends ValueColumn {
  readonly value: string;
  /** How `value` must match a row. Default `exact`. */
  readonly match?: "exact" | "prefix";
}

/** A unique key of a probe (column, value and match), as `visibleValues` returns it. */
export function valueProbeKey(probe: ValueProbe): string {
  return JSON.stringify([probe.schema, probe.table, probe.column, probe.match ?? "exact", probe.value]);
}

/**
 * A string literal PostgreSQL reads the same under any `standard_conforming_strings`: `E'…'` with backslashes and
 * quotes doubled (as `quote_literal` writes a string holding a backslash).
 */
export function escapedStringLiteral(text: string): string {
  return `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** The probes of one table and the statement that returns the positions (in `probes`) of the visible ones. */
export interface TableVisibilityStatement {
  /** `schema.table` (unquoted), for grouping and reporting. */
  readonly table: string;
  readonly probes: readonly ValueProbe[];
  /** One SELECT returning one `position` row per visible probe. */
  readonly sql: string;
}

/**
 * One statement per table, checking all its probes at once under the privileges and row-level security of whoever
 * runs it: for each column and match kind,
 * `SELECT probe.position FROM (VALUES (0, E'…'), …) AS probe(position, value)
 *  WHERE EXISTS (SELECT 1 FROM "schema"."table" WHERE "column"::pg_catalog.text OPERATOR(pg_catalog.=) probe.value)`
 * (`pg_catalog.starts_with(…)` for prefixes), joined with UNION ALL. Every operator, function and type is
 * schema-qualified: the statement runs on the asking session, whose search path the asking role controls. Duplicate probes are checked
 * once. Pure.
 */
export function valueVisibilityStatements(probes: readonly ValueProbe[]): TableVisibilityStatement[] {
  const byTable = new Map<string, { probes: ValueProbe[]; keys: Set<string> }>();
  for (const probe of probes) {
    const table = JSON.stringify([probe.schema, probe.table]);
    const entry = byTable.get(table) ?? { probes: [], keys: new Set<string>() };
    const key = valueProbeKey(probe);
    if (entry.keys.has(key)) continue;
    entry.keys.add(key);
    entry.probes.push(probe);
    byTable.set(table, entry);
  }
  return [...byTable.values()].map(({ probes: tableProbes }) => {
    const first = tableProbes[0]!;
    const from = `${alwaysQuoteIdentifier(first.schema)}.${alwaysQuoteIdentifier(first.table)}`;
    const groups = new Map<string, Array<{ position: number; probe: ValueProbe }>>();
    tableProbes.forEach((probe, position) => {
      const group = JSON.stringify([probe.column, probe.match ?? "exact"]);
      groups.set(group, [...(groups.get(group) ?? []), { position, probe }]);
    });
    const selects = [...groups.values()].map((group) => {
      const { column, match } = group[0]!.probe;
      // Schema-qualified, so an operator or function the asking role put earlier on its search path cannot answer.
      const cell = `${alwaysQuoteIdentifier(column)}::pg_catalog.text`;
      const condition =
        match === "prefix"
          ? `pg_catalog.starts_with(${cell}, probe.value)`
          : `${cell} OPERATOR(pg_catalog.=) probe.value`;
      const values = group
        .map(({ position, probe }) => `(${position}, ${escapedStringLiteral(probe.value)})`)
        .join(", ");
      return (
        `SELECT probe.position FROM (VALUES ${values}) AS probe(position, value) ` +
        `WHERE EXISTS (SELECT 1 FROM ${from} WHERE ${condition})`
      );
    });
    return { table: `${first.schema}.${first.table}`, probes: tableProbes, sql: selects.join(" UNION ALL ") };
  });
}
