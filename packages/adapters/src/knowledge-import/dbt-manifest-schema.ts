import { z } from "zod";

/**
 * The parts of a dbt `target/manifest.json` (schema versions v10 to v12: dbt 1.6 to 1.10) that nlq imports. Everything
 * else in the file is ignored; what is read must have the shape dbt writes, or the import names the JSON path.
 */

const text = z.string().nullish();
const dependsOn = z.object({ nodes: z.array(z.string()).nullish() }).nullish();

const dbtColumn = z.object({ name: z.string(), description: text });

/** A model, seed or snapshot (`nodes`) or a source (`sources`): a relation in the warehouse with descriptions. */
export const dbtRelationSchema = z.object({
  unique_id: z.string(),
  resource_type: z.string(),
  name: z.string(),
  schema: z.string().nullish(),
  alias: text,
  /** Sources: the relation's name in the warehouse (defaults to `name`). */
  identifier: text,
  description: text,
  columns: z.record(z.string(), dbtColumn).nullish(),
});

export const dbtExposureSchema = z.object({
  unique_id: z.string(),
  name: z.string(),
  label: text,
  type: text,
  description: text,
  url: text,
  depends_on: dependsOn,
});

const whereFilters = z
  .object({ where_filters: z.array(z.object({ where_sql_template: z.string() })).nullish() })
  .nullish();

const metricInput = z.object({ name: z.string(), filter: whereFilters, alias: text }).nullish();

export const dbtMetricSchema = z.object({
  unique_id: z.string(),
  name: z.string(),
  label: text,
  description: text,
  /** `simple`, `ratio`, `cumulative`, `derived`, `conversion`. */
  type: z.string(),
  type_params: z
    .object({
      measure: metricInput,
      numerator: metricInput,
      denominator: metricInput,
      expr: text,
      metrics: z.array(z.object({ name: z.string(), alias: text })).nullish(),
    })
    .nullish(),
  filter: whereFilters,
  depends_on: dependsOn,
});

/** A measure's, dimension's or entity's `expr`: SQL, or a constant YAML read as a number or boolean. */
const sqlExpression = z.union([z.string(), z.number(), z.boolean()]).nullish();

export const dbtMeasureSchema = z.object({
  name: z.string(),
  agg: z.string(),
  expr: sqlExpression,
  description: text,
  agg_params: z.object({ percentile: z.number().nullish(), use_discrete_percentile: z.boolean().nullish() }).nullish(),
});

export const dbtSemanticModelSchema = z.object({
  unique_id: z.string(),
  name: z.string(),
  description: text,
  /** `ref('orders')`. */
  model: text,
  node_relation: z.object({ alias: z.string(), schema_name: z.string() }).nullish(),
  measures: z.array(dbtMeasureSchema).nullish(),
  /** What MetricFlow filters name: `{{ Entity('order') }}`, `{{ Dimension('order__is_test') }}`. */
  entities: z.array(z.object({ name: z.string(), type: text, expr: sqlExpression })).nullish(),
  dimensions: z.array(z.object({ name: z.string(), type: text, expr: sqlExpression })).nullish(),
  /** `agg_time_dimension`: what `metric_time` is on this model. */
  defaults: z.object({ agg_time_dimension: text }).nullish(),
  depends_on: dependsOn,
});

export const dbtManifestSchema = z.object({
  metadata: z.object({ dbt_schema_version: z.string().nullish(), project_name: text }).nullish(),
  nodes: z.record(z.string(), z.unknown()),
  sources: z.record(z.string(), z.unknown()).nullish(),
  exposures: z.record(z.string(), z.unknown()).nullish(),
  metrics: z.record(z.string(), z.unknown()).nullish(),
  semantic_models: z.record(z.string(), z.unknown()).nullish(),
});

export type DbtRelation = z.infer<typeof dbtRelationSchema>;
export type DbtExposure = z.infer<typeof dbtExposureSchema>;
export type DbtMetric = z.infer<typeof dbtMetricSchema>;
export type DbtMeasure = z.infer<typeof dbtMeasureSchema>;
export type DbtSemanticModel = z.infer<typeof dbtSemanticModelSchema>;
