import type { AnswerField } from "./chat-message";
import { measuresNamedByQuestion } from "./question-measures";

/**
 * Charts chosen by the question and the roles of the result's columns: the measures the question names are drawn
 * (all measures when it names none); identifiers and keys are never plotted as measures; time on the x axis draws
 * straight lines between periods; one category draws bars (sideways when the labels are many or long, so every
 * label is readable); a second category splits one measure into grouped (or stacked) bars or, over time, into one
 * line per category, but only when it varies within a label (`channel` beside `store` is an attribute of the store,
 * not a split). Measures on a different scale (rates beside counts, 60,000 beside 100) go on a second axis. The user
 * may pick the x-axis column and the plotted measures (`ChartRequest`).
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
  /** Measures drawn against the second axis: their scale differs from the first measure's. */
  readonly secondAxisColumns?: readonly number[];
  /** Bars run sideways (categories on the vertical axis): many or long labels stay readable. */
  readonly horizontal?: boolean;
  /** Columns the user may put on the x axis (time, categories, identifiers). */
  readonly labelChoices?: readonly number[];
  /** Measures the user may plot. */
  readonly measureChoices?: readonly number[];
}

/** What the chart is asked to show: the question (its measures are drawn) and the user's picks, which win. */
export interface ChartRequest {
  readonly question?: string;
  readonly labelColumn?: number;
  readonly valueColumns?: readonly number[];
}

/** PostgreSQL type OIDs (pg_type.oid) of numeric types whose text form parses as a JavaScript number. */
const numericTypeIds = new Set([20, 21, 23, 26, 700, 701, 1700]);
/** date, time, timestamp, timestamptz, timetz. */
const temporalTypeIds = new Set([1082, 1083, 1114, 1184, 1266]);
/** Names of numeric columns that identify rather than measure (ids, keys, codes, numbers). */
const identifierName = /(^|_)(id|key|code|no|number|zip|postcode|postal_code|phone)$|^id_/i;
/** Names of numeric columns that are points in time rather than amounts. */
const timeName = /^(year|quarter|month|week|day|hour|iso_year|fiscal_year)$/i;
/** Names of measures that are rates (not on one axis with counts and amounts, never stacked). */
const rateName = /(pct|percent|percentage|rate|ratio|share|_avg|^avg_|average)/i;
/** Most bars (x values) a bar chart shows. */
export const maximumBars = 40;
/** Most series a split chart draws. */
export const maximumSeries = 12;
/** Measures whose largest values differ by this factor or more are drawn against two axes. */
const scaleRatio = 10;
/** More labels than this, or a label longer than `longLabel` characters, turns bars sideways. */
const sidewaysLabels = 6;
const longLabel = 12;

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

/** True when every value of `label` comes with one value of `other` (a store's channel): `other` splits nothing. */
function determines(rows: ReadonlyArray<ReadonlyArray<string | null>>, label: number, other: number): boolean {
  const seen = new Map<string | null, string | null>();
  for (const row of rows) {
    const key = row[label] ?? null;
    const value = row[other] ?? null;
    if (seen.has(key) && seen.get(key) !== value) return false;
    seen.set(key, value);
  }
  return true;
}

/** The largest absolute value of a column (0 when none is a number). */
function largest(rows: ReadonlyArray<ReadonlyArray<string | null>>, column: number): number {
  let maximum = 0;
  for (const row of rows) {
    const value = Math.abs(Number(row[column]));
    if (Number.isFinite(value) && value > maximum) maximum = value;
  }
  return maximum;
}

/** Two measures share an axis when both are rates or both are not, and their largest values are within `scaleRatio`. */
function sameScale(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  first: number,
  second: number,
): boolean {
  if (rateName.test(fields[first]!.name) !== rateName.test(fields[second]!.name)) return false;
  const [a, b] = [largest(rows, first), largest(rows, second)];
  if (a === 0 || b === 0) return true;
  return Math.max(a, b) / Math.min(a, b) < scaleRatio;
}

/**
 * The measures drawn and those on the second axis: the first measure's scale on the first axis, the first measure of
 * another scale and those sharing its scale on the second. Without the user's pick, measures of a third scale are
 * left out (they would be flat on both axes); picked ones go on the second axis.
 */
function axesOf(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  measures: readonly number[],
  picked: boolean,
): { drawn: number[]; second: number[] } {
  const [first, ...rest] = measures;
  if (first === undefined) return { drawn: [], second: [] };
  const drawn = [first];
  const second: number[] = [];
  for (const column of rest) {
    if (sameScale(fields, rows, first, column)) drawn.push(column);
    else if (second.length === 0 || sameScale(fields, rows, second[0]!, column) || picked) {
      drawn.push(column);
      second.push(column);
    }
  }
  return { drawn, second };
}

/** The chart for a result (see `ChartKind`); `none` for one row, no measure, or more bars than readable. */
export function planChart(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  request: ChartRequest = {},
): ChartPlan {
  if (rows.length < 2 || fields.length < 2) return noChart;
  const roles = fields.map(columnRole);
  const columnsOf = (role: ColumnRole) => roles.flatMap((candidate, index) => (candidate === role ? [index] : []));
  const measures = columnsOf("measure");
  if (measures.length === 0) return noChart;
  const times = columnsOf("time");
  const categories = columnsOf("category");
  // An identifier labels the x axis only when no category does (a name beside its id is the better label).
  const identifiers = columnsOf("identifier");
  const labelChoices = [...times, ...categories, ...identifiers];
  const pickedMeasures = (request.valueColumns ?? []).filter((column) => measures.includes(column));
  const named = measuresNamedByQuestion(
    request.question,
    measures.map((column) => ({ column, name: fields[column]!.name })),
  );
  const wanted = pickedMeasures.length > 0 ? pickedMeasures : named.length > 0 ? named : measures;
  const { drawn, second } = axesOf(fields, rows, wanted, pickedMeasures.length > 0);
  const common = {
    measureChoices: measures,
    labelChoices,
    ...(second.length > 0 ? { secondAxisColumns: second } : {}),
  };

  const labelColumn =
    request.labelColumn !== undefined && labelChoices.includes(request.labelColumn)
      ? request.labelColumn
      : (times[0] ?? categories[0] ?? identifiers[0]);
  if (labelColumn === undefined) return { ...noChart, ...common };
  const labelCount = distinctCount(rows, labelColumn);
  // A category that varies within one x value splits the measure into series (a store's channel does not).
  const splitters = [...categories, ...(categories.length === 0 ? identifiers : [])].filter(
    (column) => column !== labelColumn && !determines(rows, labelColumn, column),
  );
  const anyRate = drawn.some((column) => rateName.test(fields[column]!.name));

  if (roles[labelColumn] === "time") {
    const seriesColumn = splitters[0];
    if (seriesColumn !== undefined) {
      if (drawn.length !== 1 || splitters.length > 1 || distinctCount(rows, seriesColumn) > maximumSeries) {
        return { ...noChart, ...common };
      }
      const choices: ChartKind[] = anyRate ? ["line", "grouped", "none"] : ["line", "grouped", "stacked", "none"];
      return { kind: "line", labelColumn, valueColumns: drawn, seriesColumn, choices, ...common };
    }
    if (labelCount !== rows.length) return { ...noChart, ...common };
    return { kind: "line", labelColumn, valueColumns: drawn, choices: ["line", "bar", "none"], ...common };
  }
  const longest = Math.max(...rows.map((row) => (row[labelColumn] ?? "NULL").length));
  const horizontal = labelCount > sidewaysLabels || longest > longLabel;
  const seriesColumn = splitters[0];
  if (seriesColumn !== undefined) {
    if (
      drawn.length !== 1 ||
      splitters.length > 1 ||
      labelCount > maximumBars ||
      distinctCount(rows, seriesColumn) > maximumSeries
    ) {
      return { ...noChart, ...common };
    }
    const choices: ChartKind[] = anyRate ? ["grouped", "none"] : ["grouped", "stacked", "none"];
    return { kind: "grouped", labelColumn, valueColumns: drawn, seriesColumn, choices, horizontal, ...common };
  }
  if (labelCount !== rows.length || rows.length > maximumBars) return { ...noChart, ...common };
  return { kind: "bar", labelColumn, valueColumns: drawn, choices: ["bar", "none"], horizontal, ...common };
}

/** A drawn series: its key in the chart points, its legend name and its axis. */
export interface ChartSeries {
  readonly key: string;
  readonly name: string;
  readonly axis: "first" | "second";
}

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Labels of a time axis as periods: `2025-03-01` → `Mar 2025` when every value is the first of a month, `2025` when
 * every value is the first of a year, the day alone for timestamps at midnight; others unchanged.
 */
export function periodLabels(values: ReadonlyArray<string | null>): string[] {
  const dates = values.map((value) =>
    value === null ? null : /^(\d{4})-(\d{2})-(\d{2})(?:[ T]00:00:00(?:[+-]\d{2})?)?$/.exec(value),
  );
  if (values.length === 0 || dates.some((match) => match === null)) return values.map((value) => value ?? "NULL");
  const matches = dates as RegExpExecArray[];
  if (matches.every((match) => match[2] === "01" && match[3] === "01")) return matches.map((match) => match[1]!);
  if (matches.every((match) => match[3] === "01")) {
    return matches.map((match) => `${monthNames[Number(match[2]) - 1] ?? match[2]} ${match[1]}`);
  }
  return matches.map((match) => `${match[1]}-${match[2]}-${match[3]}`);
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
  const isTime = fields[plan.labelColumn] !== undefined && columnRole(fields[plan.labelColumn]!) === "time";
  const rawLabels = rows.map((row) => row[plan.labelColumn] ?? null);
  const labels = isTime ? periodLabels(rawLabels) : rawLabels.map((value) => value ?? "NULL");
  const second = new Set(plan.secondAxisColumns ?? []);
  if (plan.seriesColumn === undefined) {
    return {
      points: rows.map((row, index) => {
        const point: Record<string, string | number | null> = { label: labels[index]! };
        for (const column of plan.valueColumns) point[`value${column}`] = number(row[column]);
        return point;
      }),
      series: plan.valueColumns.map((column) => ({
        key: `value${column}`,
        name: fields[column]?.name ?? "value",
        axis: second.has(column) ? "second" : "first",
      })),
    };
  }
  const measure = plan.valueColumns[0]!;
  const seriesColumn = plan.seriesColumn;
  const seriesNames: string[] = [];
  const byLabel = new Map<string, Record<string, string | number | null>>();
  rows.forEach((row, index) => {
    const label = labels[index]!;
    const name = row[seriesColumn] ?? "NULL";
    if (!seriesNames.includes(name)) {
      if (seriesNames.length >= maximumSeries) return;
      seriesNames.push(name);
    }
    const point = byLabel.get(label) ?? { label };
    byLabel.set(label, point);
    point[`series${seriesNames.indexOf(name)}`] = number(row[measure]);
  });
  return {
    points: [...byLabel.values()],
    series: seriesNames.map((name, index) => ({ key: `series${index}`, name, axis: "first" as const })),
  };
}
