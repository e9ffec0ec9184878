import type { AnswerField } from "./chat-message";

/**
 * Charts chosen by the roles of the result's columns: identifiers and keys are never plotted as measures; time on the
 * x axis draws lines; one category draws bars; a second category splits one measure into stacked (or grouped) bars
 * or, over time, into one line per category. Rates and percentages are not drawn beside counts and amounts.
 */
export type ColumnRole = "time" | "category" | "identifier" | "measure";

/** How a result is drawn. `none`: the table only. */
export type ChartKind = "bar" | "line" | "stacked" | "grouped" | "none";

export interface ChartPlan {
  readonly kind: ChartKind;
  /** The x-axis column; -1 when `none`. */
  readonly labelColumn: number;
  /** The measures drawn (one when `seriesColumn` is set). */
  readonly valueColumns: readonly number[];
  /** The second category (or the category over time): one series per distinct value. */
  readonly seriesColumn?: number;
  /** The kinds the chart-type switch offers for this result (the planned one first), `none` last. */
  readonly choices: readonly ChartKind[];
}

/** PostgreSQL type OIDs (pg_type.oid) of numeric types whose text form parses as a JavaScript number. */
const numericTypeIds = new Set([20, 21, 23, 26, 700, 701, 1700]);
/** date, time, timestamp, timestamptz, timetz. */
const temporalTypeIds = new Set([1082, 1083, 1114, 1184, 1266]);
/** Names of numeric columns that identify rather than measure (ids, keys, codes, numbers). */
const identifierName = /(^|_)(id|key|code|no|number|zip|postcode|postal_code|phone)$|^id_/i;
/** Names of numeric columns that are points in time rather than amounts. */
const timeName = /^(year|quarter|month|week|day|hour|iso_year|fiscal_year)$/i;
/** Names of measures that are rates (not summable with counts and amounts). */
const rateName = /(pct|percent|percentage|rate|ratio|share|_avg|^avg_|average)/i;
/** Most bars (x values) a bar chart shows. */
export const maximumBars = 40;
/** Most series a split chart draws. */
export const maximumSeries = 12;

export const noChart: ChartPlan = { kind: "none", labelColumn: -1, valueColumns: [], choices: [] };

export function isNumericType(dataTypeId: number): boolean {
  return numericTypeIds.has(dataTypeId);
}

export function isTemporalType(dataTypeId: number): boolean {
  return temporalTypeIds.has(dataTypeId);
}

/** The role of one column, from its type and name. */
export function columnRole(field: AnswerField): ColumnRole {
  if (isTemporalType(field.dataTypeId)) return "time";
  if (isNumericType(field.dataTypeId)) {
    if (timeName.test(field.name)) return "time";
    return identifierName.test(field.name) ? "identifier" : "measure";
  }
  return identifierName.test(field.name) ? "identifier" : "category";
}

function distinctCount(rows: ReadonlyArray<ReadonlyArray<string | null>>, column: number): number {
  return new Set(rows.map((row) => row[column] ?? null)).size;
}

/** The chart for a result (see `ChartKind`); `none` for one row, no measure, or more bars than readable. */
export function planChart(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
): ChartPlan {
  if (rows.length < 2 || fields.length < 2) return noChart;
  const roles = fields.map(columnRole);
  const columnsOf = (role: ColumnRole) => roles.flatMap((candidate, index) => (candidate === role ? [index] : []));
  const measures = columnsOf("measure");
  if (measures.length === 0) return noChart;
  // Draw the measures of the first one's kind: rates apart from counts and amounts.
  const firstIsRate = rateName.test(fields[measures[0]!]!.name);
  const drawn = measures.filter((column) => rateName.test(fields[column]!.name) === firstIsRate);
  const times = columnsOf("time");
  const categories = columnsOf("category");
  // An identifier labels the x axis only when no category does (a name beside its id is the better label).
  const labels = categories.length > 0 ? categories : columnsOf("identifier").slice(0, 1);

  if (times.length > 0) {
    const labelColumn = times[0]!;
    const seriesColumn = labels[0];
    if (seriesColumn !== undefined && drawn.length === 1 && distinctCount(rows, seriesColumn) <= maximumSeries) {
      return { kind: "line", labelColumn, valueColumns: drawn, seriesColumn, choices: ["line", "stacked", "none"] };
    }
    if (labels.length > 0) return noChart;
    return { kind: "line", labelColumn, valueColumns: drawn, choices: ["line", "bar", "none"] };
  }
  const labelColumn = labels[0];
  if (labelColumn === undefined) return noChart;
  const secondColumn = labels[1];
  if (secondColumn !== undefined) {
    if (
      drawn.length !== 1 ||
      labels.length > 2 ||
      distinctCount(rows, labelColumn) > maximumBars ||
      distinctCount(rows, secondColumn) > maximumSeries
    ) {
      return noChart;
    }
    return {
      kind: "stacked",
      labelColumn,
      valueColumns: drawn,
      seriesColumn: secondColumn,
      choices: ["stacked", "grouped", "none"],
    };
  }
  if (rows.length > maximumBars) return noChart;
  return { kind: "bar", labelColumn, valueColumns: drawn, choices: ["bar", "line", "none"] };
}

/** A drawn series: its key in the chart points and its legend name. */
export interface ChartSeries {
  readonly key: string;
  readonly name: string;
}

/**
 * The points and series of a plan: one point per x value; each measure is a series, or with `seriesColumn` each
 * distinct value of it is a series of the one measure (first `maximumSeries` values in order of appearance).
 */
export function chartData(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  plan: ChartPlan,
): { points: Array<Record<string, string | number | null>>; series: ChartSeries[] } {
  if (plan.kind === "none") return { points: [], series: [] };
  const number = (text: string | null | undefined) => (text === null || text === undefined ? null : Number(text));
  if (plan.seriesColumn === undefined) {
    return {
      points: rows.map((row) => {
        const point: Record<string, string | number | null> = { label: row[plan.labelColumn] ?? "NULL" };
        for (const column of plan.valueColumns) point[`value${column}`] = number(row[column]);
        return point;
      }),
      series: plan.valueColumns.map((column) => ({ key: `value${column}`, name: fields[column]?.name ?? "value" })),
    };
  }
  const measure = plan.valueColumns[0]!;
  const seriesColumn = plan.seriesColumn;
  const seriesNames: string[] = [];
  const byLabel = new Map<string, Record<string, string | number | null>>();
  for (const row of rows) {
    const label = row[plan.labelColumn] ?? "NULL";
    const name = row[seriesColumn] ?? "NULL";
    if (!seriesNames.includes(name)) {
      if (seriesNames.length >= maximumSeries) continue;
      seriesNames.push(name);
    }
    const point = byLabel.get(label) ?? { label };
    byLabel.set(label, point);
    point[`series${seriesNames.indexOf(name)}`] = number(row[measure]);
  }
  return {
    points: [...byLabel.values()],
    series: seriesNames.map((name, index) => ({ key: `series${index}`, name })),
  };
}
