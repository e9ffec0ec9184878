import type { z } from "zod";
import {
  type DbtExposure,
  type DbtMetric,
  type DbtRelation,
  type DbtSemanticModel,
  dbtExposureSchema,
  dbtManifestSchema,
  dbtMetricSchema,
  dbtRelationSchema,
  dbtSemanticModelSchema,
} from "./dbt-manifest-schema";
import { type LocatedMeasure, metricDefinition } from "./dbt-metric-sql";
import { DbtFilterElements, type LocatedSemanticModel, renderWhereFilter } from "./dbt-where-filter";
import {
  type DatabaseElements,
  type ImportedKnowledge,
  type ImportedKnowledgeEntry,
  type UnmatchedKnowledge,
  withDistinctNames,
} from "./imported-knowledge";
import { jsonPath, KnowledgeImportError } from "./knowledge-import-error";

/** dbt resource types whose relations nlq describes (`nodes`); tests, analyses and operations are skipped. */
const relationTypes = new Set(["model", "seed", "snapshot"]);

/** A relation of the manifest and the table it is in the database, when the database has it. */
interface LocatedRelation {
  readonly relation: DbtRelation;
  /** `schema.alias` as the manifest says. */
  readonly element: string;
  /** `schema.table` as the database spells it; undefined when it has no such table. */
  readonly table?: string;
}

function checked<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  file: string,
  at: readonly PropertyKey[],
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new KnowledgeImportError(file, jsonPath([...at, ...issue.path]), issue.message);
}

function words(text: string | null | undefined): string {
  return (text ?? "").trim();
}

/**
 * Reads a dbt `target/manifest.json` (v10–v12) into knowledge entries, matched to the database's tables and columns
 * (`elements`, case-insensitively, answered in the database's spelling):
 * - each model, seed, snapshot and source with a description → a `description` of `schema.table` (the node's `schema`
 *   and `alias`, else `name`; a source's `identifier`), each described column → a `description` of
 *   `schema.table.column`;
 * - each exposure → a `term` (its label, description and type), naming the tables it depends on;
 * - each metric → a `metric`: its label (else name), description, SQL from its semantic model's measure (`agg` over
 *   `expr`; ratio and derived metrics composed), its MetricFlow filters in SQL (`renderWhereFilter`), and the tables
 *   it needs.
 * What names a table or column the database does not have is returned in `unmatched`, not dropped silently. Throws
 * `KnowledgeImportError` (the file and the JSON path) for a file that is not JSON or not shaped as dbt writes it.
 */
export function parseDbtManifest(text: string, file: string, elements: DatabaseElements): ImportedKnowledge {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new KnowledgeImportError(file, "$", `not JSON: ${(error as Error).message}`, { cause: error });
  }
  const manifest = checked(dbtManifestSchema, json, file, []);
  const entries: ImportedKnowledgeEntry[] = [];
  const unmatched: UnmatchedKnowledge[] = [];

  const relations = new Map<string, LocatedRelation>();
  const locate = (relation: DbtRelation, tableName: string): LocatedRelation => {
    const schema = relation.schema ?? "";
    const table = schema === "" ? undefined : elements.table(schema, tableName);
    return { relation, element: `${schema}.${tableName}`, ...(table ? { table } : {}) };
  };
  for (const [id, value] of Object.entries(manifest.nodes)) {
    const type = (value as { resource_type?: unknown } | null)?.resource_type;
    if (typeof type !== "string" || !relationTypes.has(type)) continue;
    const relation = checked(dbtRelationSchema, value, file, ["nodes", id]);
    relations.set(relation.unique_id, locate(relation, words(relation.alias) || relation.name));
  }
  for (const [id, value] of Object.entries(manifest.sources ?? {})) {
    const relation = checked(dbtRelationSchema, value, file, ["sources", id]);
    relations.set(relation.unique_id, locate(relation, words(relation.identifier) || relation.name));
  }

  for (const located of relations.values()) describeRelation(located, elements, entries, unmatched);

  for (const [id, value] of Object.entries(manifest.exposures ?? {})) {
    const exposure = checked(dbtExposureSchema, value, file, ["exposures", id]);
    entries.push(exposureTerm(exposure, relations));
  }

  const measures = new Map<string, LocatedMeasure>();
  const unmatchedMeasures = new Map<string, string>();
  const locatedModels: LocatedSemanticModel[] = [];
  for (const [id, value] of Object.entries(manifest.semantic_models ?? {})) {
    const model = checked(dbtSemanticModelSchema, value, file, ["semantic_models", id]);
    const { table, element } = semanticModelTable(model, relations, elements);
    if (table) locatedModels.push({ model, table });
    for (const measure of model.measures ?? []) {
      if (table) measures.set(measure.name, { measure, table });
      else unmatchedMeasures.set(measure.name, element);
    }
  }
  const metrics = new Map<string, DbtMetric>();
  for (const [id, value] of Object.entries(manifest.metrics ?? {})) {
    const metric = checked(dbtMetricSchema, value, file, ["metrics", id]);
    metrics.set(metric.name, metric);
  }
  const filterElements = new DbtFilterElements(locatedModels);
  for (const metric of metrics.values()) {
    const missing = metricInputs(metric, metrics)
      .map((measure) => unmatchedMeasures.get(measure))
      .find((element) => element !== undefined);
    if (missing !== undefined) {
      unmatched.push({
        externalId: metric.unique_id,
        element: missing,
        reason: `metric ${metric.name}: no table ${missing} in the database`,
      });
      continue;
    }
    entries.push(metricEntry(metric, metrics, measures, filterElements));
  }
  return { entries: withDistinctNames(entries), unmatched };
}

function describeRelation(
  located: LocatedRelation,
  elements: DatabaseElements,
  entries: ImportedKnowledgeEntry[],
  unmatched: UnmatchedKnowledge[],
): void {
  const { relation, table } = located;
  const description = words(relation.description);
  const columns = Object.values(relation.columns ?? {}).filter((column) => words(column.description) !== "");
  if (!table) {
    if (description !== "" || columns.length > 0) {
      unmatched.push({
        externalId: relation.unique_id,
        element: located.element,
        reason: `no table ${located.element} in the database`,
      });
    }
    return;
  }
  if (description !== "") {
    entries.push({
      kind: "description",
      name: table,
      text: description,
      references: [table],
      externalId: relation.unique_id,
    });
  }
  const [schema, name] = [table.slice(0, table.indexOf(".")), table.slice(table.indexOf(".") + 1)];
  for (const column of columns) {
    const element = elements.column(schema, name, column.name);
    const externalId = `${relation.unique_id}.${column.name}`;
    if (!element) {
      unmatched.push({
        externalId,
        element: `${table}.${column.name}`,
        reason: `no column ${column.name} in ${table}`,
      });
      continue;
    }
    entries.push({
      kind: "description",
      name: element,
      text: words(column.description),
      references: [element],
      externalId,
    });
  }
}

function exposureTerm(exposure: DbtExposure, relations: ReadonlyMap<string, LocatedRelation>): ImportedKnowledgeEntry {
  const tables = (exposure.depends_on?.nodes ?? []).flatMap((id) => {
    const table = relations.get(id)?.table;
    return table ? [table] : [];
  });
  const name = words(exposure.label) || exposure.name;
  const kind = words(exposure.type) || "exposure";
  const description = words(exposure.description);
  const built = tables.length > 0 ? ` Built on ${tables.join(", ")}.` : "";
  return {
    kind: "term",
    name,
    text: `${description === "" ? `A dbt ${kind}.` : `${description}${/[.!?]$/.test(description) ? "" : "."}`} (dbt ${kind})${built}`,
    references: [...new Set(tables)],
    externalId: exposure.unique_id,
  };
}

/** The semantic model's table: `node_relation`, else the model its `model: ref('…')` or `depends_on` names. */
function semanticModelTable(
  model: DbtSemanticModel,
  relations: ReadonlyMap<string, LocatedRelation>,
  elements: DatabaseElements,
): { readonly table?: string; readonly element: string } {
  if (model.node_relation) {
    const { schema_name: schema, alias } = model.node_relation;
    const table = elements.table(schema, alias);
    return { ...(table ? { table } : {}), element: `${schema}.${alias}` };
  }
  const referenced = /ref\(\s*['"]([^'"]+)['"]\s*\)/.exec(model.model ?? "")?.[1];
  const located =
    [...relations.values()].find(
      (candidate) => candidate.relation.resource_type === "model" && candidate.relation.name === referenced,
    ) ?? (model.depends_on?.nodes ?? []).map((id) => relations.get(id)).find((candidate) => candidate !== undefined);
  return located
    ? { ...(located.table ? { table: located.table } : {}), element: located.element }
    : { element: referenced ?? model.name };
}

/** The measures a metric rests on, through ratio and derived metrics. */
function metricInputs(metric: DbtMetric, metrics: ReadonlyMap<string, DbtMetric>, depth = 0): string[] {
  const parameters = metric.type_params;
  if (!parameters || depth > 8) return [];
  const inner = (name: string | undefined) => {
    const other = name === undefined ? undefined : metrics.get(name);
    return other ? metricInputs(other, metrics, depth + 1) : [];
  };
  return [
    ...(parameters.measure ? [parameters.measure.name] : []),
    ...inner(parameters.numerator?.name),
    ...inner(parameters.denominator?.name),
    ...(parameters.metrics ?? []).flatMap((input) => inner(input.name)),
  ];
}

function metricEntry(
  metric: DbtMetric,
  metrics: ReadonlyMap<string, DbtMetric>,
  measures: ReadonlyMap<string, LocatedMeasure>,
  filterElements: DbtFilterElements,
): ImportedKnowledgeEntry {
  const definition = metricDefinition(metric, metrics, measures);
  const filters = [...new Set(definition.filters)].map((filter) =>
    renderWhereFilter(filter, filterElements, definition.tables),
  );
  const description = words(metric.description);
  const sentences = [
    description === "" ? `The dbt metric ${metric.name}.` : `${description}${/[.!?]$/.test(description) ? "" : "."}`,
    ...(definition.tables.length > 0 ? [`Computed over ${definition.tables.join(", ")}.`] : []),
    ...(filters.length > 0 ? [`Only rows where ${filters.map((filter) => filter.sql).join(" AND ")}.`] : []),
  ];
  return {
    kind: "metric",
    name: words(metric.label) || metric.name,
    text: sentences.join(" "),
    ...(definition.sql ? { sql: definition.sql } : {}),
    references: [...new Set([...definition.tables, ...filters.flatMap((filter) => filter.tables)])],
    externalId: metric.unique_id,
  };
}
