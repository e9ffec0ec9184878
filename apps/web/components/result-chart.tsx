"use client";

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
import { type ChartPlan, chartPoints, chartSeries } from "../lib/chart-kind";
import type { AnswerField } from "../lib/chat-message";

export interface ResultChartProps {
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  readonly plan: ChartPlan;
}

const palette = ["#3b6fd1", "#d9822b", "#2e9c6a", "#a54fc6", "#c23f4e"];

/** A bar chart (label + numbers) or a line chart (date/time + numbers) of the result. */
export function ResultChart({ fields, rows, plan }: ResultChartProps) {
  const points = chartPoints(rows, plan);
  const series = chartSeries(fields, rows, plan);
  const twoAxes = series.some((item) => item.axis === "right");
  const labelName = fields[plan.labelColumn]?.name ?? "label";
  const description = `${plan.kind === "line" ? "Line" : "Bar"} chart of ${series.map((item) => item.name).join(", ")} by ${labelName}`;
  return (
    <figure className="chart" aria-label={description}>
      <div className="chart-area">
        <ResponsiveContainer width="100%" height="100%">
          {plan.kind === "line" ? (
            <LineChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid stroke="#e3e6ea" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={24} />
              <YAxis yAxisId="left" tick={{ fontSize: 12 }} width={64} />
              {twoAxes ? <YAxis yAxisId="right" orientation="right" tick={{ fontSize: 12 }} width={48} /> : null}
              <Tooltip />
              {series.length > 1 ? <Legend /> : null}
              {series.map((item, index) => (
                <Line
                  yAxisId={item.axis}
                  key={item.key}
                  type="monotone"
                  dataKey={item.key}
                  name={twoAxes ? `${item.name} (${item.axis} axis)` : item.name}
                  stroke={palette[index % palette.length]}
                  strokeWidth={2}
                  dot={points.length <= 40}
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          ) : (
            <BarChart data={points} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
              <CartesianGrid stroke="#e3e6ea" vertical={false} />
              <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
              <YAxis yAxisId="left" tick={{ fontSize: 12 }} width={64} />
              {twoAxes ? <YAxis yAxisId="right" orientation="right" tick={{ fontSize: 12 }} width={48} /> : null}
              <Tooltip />
              {series.length > 1 ? <Legend /> : null}
              {series.map((item, index) => (
                <Bar
                  yAxisId={item.axis}
                  key={item.key}
                  dataKey={item.key}
                  name={twoAxes ? `${item.name} (${item.axis} axis)` : item.name}
                  fill={palette[index % palette.length]}
                  radius={[3, 3, 0, 0]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
      <figcaption className="chart-caption">{description}</figcaption>
    </figure>
  );
}
