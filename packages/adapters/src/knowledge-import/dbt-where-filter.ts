import type { DbtSemanticModel } from "./dbt-manifest-schema";

/** A dimension or entity a MetricFlow filter may name: its SQL expression and the table it is a column of. */
interface FilterElement {
  readonly sql: string;
  readonly table: string;
}

/** What a semantic model adds to the filter lookup: its table as the database spells it. */
export interface LocatedSemanticModel {
  readonly model: DbtSemanticModel;
  readonly table: string;
}

/** Entity types that identify a semantic model's own rows (a `foreign` entity points at another model's). */
const identifyingEntityTypes = new Set(["primary", "unique", "natural"]);

const simpleIdentifier = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/**
 * The dimensions, time dimensions and entities MetricFlow filters name, from the semantic models whose tables the
 * database has: `entity__dimension` (the entity one that identifies the model's rows) and the entity itself, each its
 * `expr` (else its name) on the model's table; `metric_time` of a table is its model's `defaults.agg_time_dimension`.
 */
export class DbtFilterElements {
  private readonly elements = new Map<string, FilterElement>();
  private readonly metricTimes = new Map<string, string>();

  constructor(models: readonly LocatedSemanticModel[]) {
    for (const { model, table } of models) {
      const entities = (model.entities ?? []).filter((entity) => identifyingEntityTypes.has(entity.type ?? ""));
      for (const entity of entities) {
        this.add(entity.name, { sql: String(entity.expr ?? entity.name), table });
        for (const dimension of model.dimensions ?? []) {
          this.add(`${entity.name}__${dimension.name}`, { sql: String(dimension.expr ?? dimension.name), table });
        }
      }
      const timeName = model.defaults?.agg_time_dimension;
      const time = (model.dimensions ?? []).find((dimension) => dimension.name === timeName);
      if (timeName) this.metricTimes.set(table, String(time?.expr ?? timeName));
    }
  }

  private add(name: string, element: FilterElement): void {
    const key = name.toLowerCase();
    // Two models claiming one name: neither is certain, so the filter stays as dbt wrote it.
    if (this.elements.has(key) && this.elements.get(key)!.table !== element.table) {
      this.elements.set(key, { sql: "", table: "" });
    } else this.elements.set(key, element);
  }

  find(name: string, metricTables: readonly string[]): FilterElement | undefined {
    const key = name.toLowerCase();
    if (key === "metric_time") {
      const table = metricTables.length === 1 ? metricTables[0]! : undefined;
      const sql = table === undefined ? undefined : this.metricTimes.get(table);
      return table !== undefined && sql !== undefined ? { sql, table } : undefined;
    }
    const element = this.elements.get(key);
    return element && element.sql !== "" ? element : undefined;
  }
}

/** A rendered filter: SQL where every call could be resolved (else the template as dbt wrote it), and its tables. */
export interface RenderedFilter {
  readonly sql: string;
  /** Tables the filter names besides the metric's own (a dimension of another semantic model). */
  readonly tables: readonly string[];
}

const quoted = `\\s*['"]([^'"]+)['"]\\s*`;
/** `{{ Dimension('order__is_test') }}`, `{{ TimeDimension('metric_time', 'month') }}`, `{{ Entity('order') }}`. */
const call = new RegExp(
  `\\{\\{\\s*(Dimension|TimeDimension|Entity)\\(${quoted}(?:,${quoted})?\\)((?:\\.\\w+\\(${quoted}\\))*)\\s*\\}\\}`,
  "g",
);
const grainCall = new RegExp(`\\.grain\\(${quoted}\\)`);
const grains = new Set([
  "microsecond",
  "millisecond",
  "second",
  "minute",
  "hour",
  "day",
  "week",
  "month",
  "quarter",
  "year",
]);

/**
 * A metric's MetricFlow `where` filter (`{{ Dimension('order__is_test') }} = false`) in plain SQL (`is_test = false`),
 * as a reader of the metric's definition needs it: each `Dimension`, `TimeDimension` (truncated to its grain) and
 * `Entity` becomes its expression; one on another table than the metric's is qualified by it (`analytics.customers.region`)
 * and that table is returned, so the entry names it. A template with anything nlq cannot resolve (an unknown name, a
 * `Metric(…)` call, an unknown grain) is returned as written.
 */
export function renderWhereFilter(
  template: string,
  elements: DbtFilterElements,
  metricTables: readonly string[],
): RenderedFilter {
  const tables = new Set<string>();
  let resolved = true;
  const sql = template.replace(call, (whole, kind: string, name: string, argument?: string, chained?: string) => {
    const element = elements.find(name, metricTables);
    const grain = (argument ?? (chained ? grainCall.exec(chained)?.[1] : undefined))?.toLowerCase();
    if (!element || (grain !== undefined && (kind === "Entity" || !grains.has(grain)))) {
      resolved = false;
      return whole;
    }
    const own = metricTables.includes(element.table);
    if (!own) tables.add(element.table);
    const expression = own
      ? element.sql
      : simpleIdentifier.test(element.sql)
        ? `${element.table}.${element.sql}`
        : `(${element.sql}) of ${element.table}`;
    return grain === undefined ? expression : `date_trunc('${grain}', ${expression})`;
  });
  if (!resolved || /\{\{|\{%/.test(sql)) return { sql: template, tables: [] };
  return { sql, tables: [...tables] };
}
