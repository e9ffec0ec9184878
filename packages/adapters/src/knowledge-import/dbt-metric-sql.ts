import type { DbtMeasure, DbtMetric } from "./dbt-manifest-schema";

/** A measure with the table it aggregates (`schema.table`, as the database spells it). */
export interface LocatedMeasure {
  readonly measure: DbtMeasure;
  readonly table: string;
}

/**
 * The SQL aggregate of a dbt measure: its `agg` over its `expr` (the measure's name when there is none), as MetricFlow
 * renders it for PostgreSQL. Undefined for an aggregation nlq does not know.
 */
export function measureSql(measure: DbtMeasure): string | undefined {
  const expression = String(measure.expr ?? measure.name);
  switch (measure.agg.toLowerCase()) {
    case "sum":
    case "min":
    case "max":
    case "count":
      return `${measure.agg.toLowerCase()}(${expression})`;
    case "average":
      return `avg(${expression})`;
    case "count_distinct":
      return `count(DISTINCT ${expression})`;
    case "sum_boolean":
      return `sum(CASE WHEN ${expression} THEN 1 ELSE 0 END)`;
    case "median":
      return `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${expression})`;
    case "percentile": {
      const percentile = measure.agg_params?.percentile;
      if (percentile === undefined || percentile === null) return undefined;
      const kind = measure.agg_params?.use_discrete_percentile ? "percentile_disc" : "percentile_cont";
      return `${kind}(${percentile}) WITHIN GROUP (ORDER BY ${expression})`;
    }
    default:
      return undefined;
  }
}

/** What a metric's SQL and the tables it needs are, when nlq can say. */
export interface MetricDefinition {
  readonly sql?: string;
  readonly tables: readonly string[];
  /** The filters dbt applies (`{{ Dimension('order__is_test') }} = false`), as written (`renderWhereFilter` makes them SQL). */
  readonly filters: readonly string[];
}

type MetricInput = NonNullable<NonNullable<DbtMetric["type_params"]>["measure"]>;

function filtersOf(input: { readonly filter?: MetricInput["filter"] } | null | undefined): string[] {
  return (input?.filter?.where_filters ?? []).map((filter) => filter.where_sql_template.trim()).filter(Boolean);
}

/**
 * A metric's definition in SQL: `simple` and `cumulative` metrics are their measure's aggregate; `ratio` the
 * numerator's over the denominator's (each a metric); `derived` its `expr` with each input metric's SQL in place of its
 * name (or alias). Metrics are looked up by name in `metrics`, measures in `measures`; what cannot be resolved leaves
 * the SQL undefined (the description still imports).
 */
export function metricDefinition(
  metric: DbtMetric,
  metrics: ReadonlyMap<string, DbtMetric>,
  measures: ReadonlyMap<string, LocatedMeasure>,
  depth = 0,
): MetricDefinition {
  const parameters = metric.type_params;
  const filters = filtersOf(metric);
  if (depth > 8 || !parameters) return { tables: [], filters };
  const inner = (name: string | undefined): MetricDefinition | undefined => {
    const other = name === undefined ? undefined : metrics.get(name);
    return other ? metricDefinition(other, metrics, measures, depth + 1) : undefined;
  };
  switch (metric.type) {
    case "simple":
    case "cumulative": {
      const located = parameters.measure ? measures.get(parameters.measure.name) : undefined;
      const sql = located ? measureSql(located.measure) : undefined;
      return {
        ...(sql ? { sql } : {}),
        tables: located ? [located.table] : [],
        filters: [...filters, ...filtersOf(parameters.measure)],
      };
    }
    case "ratio": {
      const numerator = inner(parameters.numerator?.name);
      const denominator = inner(parameters.denominator?.name);
      const tables = [...new Set([...(numerator?.tables ?? []), ...(denominator?.tables ?? [])])];
      const both = numerator?.sql && denominator?.sql;
      return {
        ...(both ? { sql: `(${numerator.sql}) / NULLIF(${denominator.sql}, 0)` } : {}),
        tables,
        filters: [
          ...filters,
          ...(numerator?.filters ?? []),
          ...(denominator?.filters ?? []),
          ...filtersOf(parameters.numerator),
          ...filtersOf(parameters.denominator),
        ],
      };
    }
    case "derived": {
      let sql = parameters.expr ?? undefined;
      const tables = new Set<string>();
      const innerFilters: string[] = [];
      for (const input of parameters.metrics ?? []) {
        const definition = inner(input.name);
        for (const table of definition?.tables ?? []) tables.add(table);
        innerFilters.push(...(definition?.filters ?? []));
        const word = input.alias ?? input.name;
        if (sql !== undefined && definition?.sql) {
          sql = sql.replace(new RegExp(`\\b${word.replace(/[^\w]/g, "")}\\b`, "g"), `(${definition.sql})`);
        } else sql = undefined;
      }
      return { ...(sql ? { sql } : {}), tables: [...tables], filters: [...filters, ...innerFilters] };
    }
    default:
      return { tables: [], filters };
  }
}
