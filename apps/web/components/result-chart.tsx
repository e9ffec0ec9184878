"use client";

import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { type ChartKind, type ChartPlan, chartData } from "../lib/chart-plan";
import type { AnswerField } from "../lib/chat-message";

export interface ResultChartProps {
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly plan: ChartPlan;
}

const palette = ["#3b6fd1", "#d9822b", "#2e9c6a", "#a54fc6", "#c23f4e", "#4a9bb0", "#8a6d3b", "#6b7280"];

const kindNames: Record<ChartKind, string> = {
  bar: "Bar",
  line: "Line",
  stacked: "Stacked bars",
  grouped: "Grouped bars",
  none: "Table only",
};

/** The chart the plan chose, with a switch between the kinds that fit the result. */
export function ResultChart({ fields, rows, plan }: ResultChartProps) {
  const [kind, setKind] = useState<ChartKind>(plan.kind);
  const { points, series } = chartData(fields, rows, plan);
  const labelName = fields[plan.labelColumn]?.name ?? "label";
  const measureNames = plan.valueColumns.map((column) => fields[column]?.name ?? "value").join(", ");
  const split = plan.seriesColumn === undefined ? "" : ` per ${fields[plan.seriesColumn]?.name ?? "category"}`;
  const description = `${kindNames[kind]} chart of ${measureNames}${split} by ${labelName}`;
  const margin = { top: 8, right: 16, bottom: 8, left: 8 };
  const axes = (
    <>
      <CartesianGrid stroke="var(--grid)" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 12, fill: "var(--muted)" }} minTickGap={16} />
      <YAxis tick={{ fontSize: 12, fill: "var(--muted)" }} width={64} />
      <Tooltip />
      {series.length > 1 ? <Legend /> : null}
    </>
  );
  return (
    <div className="chart-block">
      <fieldset className="chart-switch">
        <legend className="visually-hidden">Chart type</legend>
        {plan.choices.map((choice) => (
          <label key={choice} className={choice === kind ? "chart-choice chart-choice-current" : "chart-choice"}>
            <input
              type="radio"
              name={`chart-${plan.labelColumn}-${plan.valueColumns.join("-")}-${plan.seriesColumn ?? "x"}`}
              value={choice}
              checked={choice === kind}
              onChange={() => setKind(choice)}
            />
            {kindNames[choice]}
          </label>
        ))}
      </fieldset>
      {kind === "none" ? null : (
        <figure className="chart" aria-label={description}>
          <div className="chart-area">
            <ResponsiveContainer width="100%" height="100%">
              {kind === "line" ? (
                <LineChart data={points} margin={margin}>
                  {axes}
                  {series.map((item, index) => (
                    <Line
                      key={item.key}
                      type="monotone"
                      dataKey={item.key}
                      name={item.name}
                      stroke={palette[index % palette.length]}
                      strokeWidth={2}
                      dot={points.length <= 40}
                      connectNulls={false}
                      isAnimationActive={false}
                    />
                  ))}
                </LineChart>
              ) : (
                <BarChart data={points} margin={margin}>
                  {axes}
                  {series.map((item, index) => (
                    <Bar
                      key={item.key}
                      dataKey={item.key}
                      name={item.name}
                      fill={palette[index % palette.length]}
                      {...(kind === "stacked"
                        ? { stackId: "stack" }
                        : { radius: [3, 3, 0, 0] as [number, number, number, number] })}
                      isAnimationActive={false}
                    />
                  ))}
                </BarChart>
              )}
            </ResponsiveContainer>
          </div>
          <figcaption className="chart-caption">{description}</figcaption>
        </figure>
      )}
    </div>
  );
}
