import type { AnswerField } from "./chat-message";

/**
 * Whether a result suits a chart, and which: one label column plus one or more numeric columns is a
 * bar chart; a date/time column plus numeric columns is a line chart; anything else gets no chart.
 */
export type ChartKind = "bar" | "line" | "none";

/** PostgreSQL type OIDs (pg_type.oid) of numeric types whose text form parses as a JavaScript number. */
const numericTypeIds = new Set([20, 21, 23, 26, 700, 701, 1700]);
/** date, time, timestamp, timestamptz, timetz. */
const temporalTypeIds = new Set([1082, 1083, 1114, 1184, 1266]);
/** Most bars a bar chart shows before it stops being readable. */
const maximumBars = 40;

export interface ChartPlan {
  readonly kind: ChartKind;
  /** Index of the label (x-axis) column; -1 when kind is `none`. */
  readonly labelColumn: number;
  /** Indexes of the numeric (y-axis) columns. */
  readonly valueColumns: readonly number[];
}

const noChart: ChartPlan = { kind: "none", labelColumn: -1, valueColumns: [] };

export function isNumericType(dataTypeId: number): boolean {
  return numericTypeIds.has(dataTypeId);
}

export function planChart(fields: readonly AnswerField[], rowCount: number): ChartPlan {
  if (rowCount < 2 || fields.length < 2) return noChart;
  const labelColumns = fields.flatMap((field, index) => (isNumericType(field.dataTypeId) ? [] : [index]));
  const valueColumns = fields.flatMap((field, index) => (isNumericType(field.dataTypeId) ? [index] : []));
  const labelColumn = labelColumns[0];
  if (labelColumns.length !== 1 || labelColumn === undefined || valueColumns.length === 0) return noChart;
  const labelType = fields[labelColumn]?.dataTypeId ?? 0;
  if (temporalTypeIds.has(labelType)) return { kind: "line", labelColumn, valueColumns };
  if (rowCount > maximumBars) return noChart;
  return { kind: "bar", labelColumn, valueColumns };
}

/** A plotted numeric column: its key in the chart points, its display name and its y-axis. */
export interface ChartSeries {
  readonly key: string;
  readonly name: string;
  /** `right` for a series far smaller than the largest one, so it does not flatten against the axis. */
  readonly axis: "left" | "right";
}

/** A series whose largest value is this many times smaller than the largest series' gets the right axis. */
const separateAxisRatio = 20;

export function chartSeries(
  fields: readonly AnswerField[],
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  plan: ChartPlan,
): ChartSeries[] {
  const magnitudes = plan.valueColumns.map((column) =>
    rows.reduce((largest, row) => {
      const value = Math.abs(Number(row[column] ?? 0));
      return Number.isFinite(value) ? Math.max(largest, value) : largest;
    }, 0),
  );
  const largest = Math.max(0, ...magnitudes);
  return plan.valueColumns.map((column, position) => ({
    key: `value${column}`,
    name: fields[column]?.name ?? `column ${column + 1}`,
    axis: largest > 0 && (magnitudes[position] ?? 0) * separateAxisRatio < largest ? "right" : "left",
  }));
}

/** One chart point per row: the label under `label`, each numeric column under its series key (NULL stays null). */
export function chartPoints(
  rows: ReadonlyArray<ReadonlyArray<string | null>>,
  plan: ChartPlan,
): Array<Record<string, string | number | null>> {
  if (plan.kind === "none") return [];
  return rows.map((row) => {
    const point: Record<string, string | number | null> = { label: row[plan.labelColumn] ?? "NULL" };
    for (const column of plan.valueColumns) {
      const text = row[column];
      point[`value${column}`] = text === null || text === undefined ? null : Number(text);
    }
    return point;
  });
}
