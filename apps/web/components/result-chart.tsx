"use client";

import { useEffect, useId, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { type ChartKind, type ChartPlan, type ChartSeries, chartData, planChart } from "../lib/chart-plan";
import type { AnswerField } from "../lib/chat-message";
import { exportFileName } from "../lib/export-file-name";
import { ChartControls, kindNames } from "./chart-controls";
import { chartPng, downloadBlob } from "./chart-image";

export interface ResultChartProps {
  readonly fields: readonly AnswerField[];
  readonly rows: ReadonlyArray<ReadonlyArray<string | null>>;
  /** The question answered: the chart draws the measures it names. */
  readonly question?: string;
}

const palette = ["#3b6fd1", "#d9822b", "#2e9c6a", "#a54fc6", "#c23f4e", "#4a9bb0", "#8a6d3b", "#6b7280"];
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const exact = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
/** Pixels per character of a 12 px axis label (an upper estimate for the system sans-serif). */
const characterWidth = 7;
const tickFont = 12;

/** The width of an element, followed as it resizes (the chart is drawn at that width, not at a guess). */
function useWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}

/** A label cut to `characters` with an ellipsis (the full text stays in the tooltip and the table). */
function cut(text: string, characters: number): string {
  return text.length <= characters ? text : `${text.slice(0, Math.max(1, characters - 1))}…`;
}

function seriesName(item: ChartSeries, horizontal: boolean, twoAxes: boolean): string {
  if (!twoAxes) return item.name;
  if (horizontal) return `${item.name} (${item.axis === "second" ? "top" : "bottom"} axis)`;
  return `${item.name} (${item.axis === "second" ? "right" : "left"} axis)`;
}

/**
 * The chart the plan chose for the question, with a switch between the kinds that fit the result and the user's
 * pick of the x-axis column and the plotted measures. Every category label is drawn: bars turn sideways for many or
 * long labels, and labels under a time axis turn slanted when they would overlap.
 */
export function ResultChart({ fields, rows, question }: ResultChartProps) {
  const id = useId();
  const [kind, setKind] = useState<ChartKind | undefined>();
  const [labelColumn, setLabelColumn] = useState<number | undefined>();
  const [valueColumns, setValueColumns] = useState<readonly number[] | undefined>();
  const [areaRef, width] = useWidth();
  const [exportFailure, setExportFailure] = useState<string | undefined>();
  const automatic = planChart(fields, rows, question === undefined ? {} : { question });
  const plan: ChartPlan = planChart(fields, rows, {
    ...(question === undefined ? {} : { question }),
    ...(labelColumn === undefined ? {} : { labelColumn }),
    ...(valueColumns === undefined ? {} : { valueColumns }),
  });
  const drawable = plan.kind !== "none";
  const choices = drawable ? plan.choices : automatic.choices;
  const shownKind: ChartKind = kind !== undefined && plan.choices.includes(kind) ? kind : plan.kind;
  const { points, series } = chartData(fields, rows, plan);
  const labelName = fields[plan.labelColumn]?.name ?? "label";
  const split = plan.seriesColumn === undefined ? "" : ` per ${fields[plan.seriesColumn]?.name ?? "category"}`;
  const firstNames = series.filter((item) => item.axis === "first").map((item) => item.name);
  const secondNames = series.filter((item) => item.axis === "second").map((item) => item.name);
  const twoAxes = secondNames.length > 0;
  const horizontal = shownKind !== "line" && plan.horizontal === true;
  const measureNames =
    plan.seriesColumn === undefined ? firstNames.join(", ") : (fields[plan.valueColumns[0]!]?.name ?? "");
  const secondText = twoAxes ? `; ${secondNames.join(", ")} on the ${horizontal ? "top" : "right"} axis` : "";
  const description = `${kindNames[shownKind]} chart of ${measureNames}${split} by ${labelName}${secondText}`;
  const labels = points.map((point) => String(point.label));
  const longest = Math.max(1, ...labels.map((label) => label.length));

  let chart: React.ReactNode = null;
  if (drawable && shownKind !== "none" && width > 0) {
    const numberTick = { fontSize: tickFont, fill: "var(--muted)" };
    const formatNumber = (value: unknown) => (typeof value === "number" ? compact.format(value) : String(value));
    const tooltip = (
      <Tooltip
        formatter={(value: unknown) => (typeof value === "number" ? exact.format(value) : String(value))}
        contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" }}
      />
    );
    // In the order drawn (recharts sorts by name otherwise).
    const order = (item: { dataKey?: unknown }) => series.findIndex((entry) => entry.key === item.dataKey);
    const legend =
      series.length > 1 || twoAxes ? <Legend wrapperStyle={{ fontSize: tickFont }} itemSorter={order} /> : null;
    if (horizontal) {
      // Categories down the side, all of them: the label column takes at most 40 % of the width.
      const labelWidth = Math.min(Math.round(width * 0.4), longest * characterWidth + 8);
      const fits = Math.max(4, Math.floor((labelWidth - 8) / characterWidth));
      const perBar = plan.seriesColumn === undefined ? 26 : Math.max(26, series.length * 12 + 8);
      const height = points.length * perBar + (twoAxes ? 90 : 60) + (legend ? 24 : 0);
      chart = (
        <BarChart
          width={width}
          height={height}
          data={points}
          layout="vertical"
          margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
        >
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <YAxis
            type="category"
            dataKey="label"
            width={labelWidth}
            interval={0}
            // One line per label (recharts would wrap a long one onto two), cut to the label column's width.
            tick={(props: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) => (
              <text
                x={Number(props.x ?? 0)}
                y={Number(props.y ?? 0)}
                dy={4}
                textAnchor="end"
                fontSize={tickFont}
                fill="var(--text)"
                className="recharts-cartesian-axis-tick-value"
              >
                {cut(String(props.payload?.value ?? ""), fits)}
              </text>
            )}
          />
          <XAxis xAxisId="first" type="number" tick={numberTick} tickFormatter={formatNumber} />
          {twoAxes ? (
            <XAxis xAxisId="second" type="number" orientation="top" tick={numberTick} tickFormatter={formatNumber} />
          ) : null}
          {tooltip}
          {legend}
          {series.map((item, index) => (
            <Bar
              key={item.key}
              xAxisId={item.axis}
              dataKey={item.key}
              name={seriesName(item, true, twoAxes)}
              fill={palette[index % palette.length]}
              {...(shownKind === "stacked" ? { stackId: "stack" } : {})}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      );
    } else {
      // Labels along the bottom: slanted when they would overlap, thinned only when even slanted they cannot fit.
      const axisWidth = width - 16 - 64 * (twoAxes ? 2 : 1);
      const slot = axisWidth / Math.max(1, points.length);
      const slanted = longest * characterWidth > slot - 4;
      const interval = slanted && slot < tickFont + 4 ? Math.ceil((tickFont + 4) / slot) - 1 : 0;
      const labelHeight = slanted ? Math.min(110, Math.round(longest * characterWidth * 0.72) + 16) : 30;
      const height = 240 + labelHeight + (legend ? 24 : 0);
      const axes = (
        <>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="label"
            interval={interval}
            height={labelHeight}
            tick={{ fontSize: tickFont, fill: "var(--text)" }}
            {...(slanted ? { angle: -45, textAnchor: "end" } : {})}
          />
          <YAxis yAxisId="first" tick={numberTick} tickFormatter={formatNumber} width={64} />
          {twoAxes ? (
            <YAxis yAxisId="second" orientation="right" tick={numberTick} tickFormatter={formatNumber} width={64} />
          ) : null}
          {tooltip}
          {legend}
        </>
      );
      // Upright labels are centred under their point: the last one needs half its width right of the plot, or it is
      // cut at the edge ("Nov 202"), on screen and in the PNG.
      const lastLabel = labels.at(-1) ?? "";
      const lastHalf = slanted ? 0 : Math.ceil((lastLabel.length * characterWidth) / 2) + 4;
      const margin = { top: 8, right: Math.max(16, lastHalf - (twoAxes ? 64 : 0)), bottom: 8, left: 8 };
      chart =
        shownKind === "line" ? (
          <LineChart width={width} height={height} data={points} margin={margin}>
            {axes}
            {series.map((item, index) => (
              <Line
                key={item.key}
                // Straight segments: the values between two periods are not known, a curve would invent them.
                type="linear"
                yAxisId={item.axis}
                dataKey={item.key}
                name={seriesName(item, false, twoAxes)}
                stroke={palette[index % palette.length]}
                strokeWidth={2}
                dot={points.length <= 40}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : (
          <BarChart width={width} height={height} data={points} margin={margin}>
            {axes}
            {series.map((item, index) => (
              <Bar
                key={item.key}
                yAxisId={item.axis}
                dataKey={item.key}
                name={seriesName(item, false, twoAxes)}
                fill={palette[index % palette.length]}
                {...(shownKind === "stacked"
                  ? { stackId: "stack" }
                  : { radius: [3, 3, 0, 0] as [number, number, number, number] })}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        );
    }
  }

  return (
    <div className="chart-block">
      <ChartControls
        id={id}
        fields={fields}
        plan={drawable ? plan : automatic}
        choices={choices}
        kind={drawable ? shownKind : automatic.kind}
        labelColumn={drawable ? plan.labelColumn : (labelColumn ?? automatic.labelColumn)}
        valueColumns={valueColumns ?? (drawable ? plan.valueColumns : automatic.valueColumns)}
        onKind={setKind}
        onLabelColumn={setLabelColumn}
        onValueColumns={setValueColumns}
      />
      {!drawable ? (
        <p className="chart-note">
          {labelColumn === undefined && valueColumns === undefined
            ? "No chart fits these columns as they are: pick the x axis and the measures to draw one."
            : `These columns cannot be drawn as one chart (a value of ${fields[plan.labelColumn]?.name ?? "the x axis"} repeats, or there are too many). Pick other columns or read the table.`}
        </p>
      ) : shownKind === "none" ? null : (
        <figure
          className="chart"
          aria-label={description}
          data-kind={shownKind}
          data-horizontal={horizontal ? "true" : "false"}
          data-series={series.map((item) => item.name).join("|")}
          data-second-axis={secondNames.join("|")}
        >
          <div className="chart-area" ref={areaRef}>
            {chart}
          </div>
          <figcaption className="chart-caption">{description}</figcaption>
          <div className="chart-export">
            <button
              type="button"
              className="button button-secondary"
              onClick={(event) => {
                const svg = event.currentTarget
                  .closest("figure")
                  ?.querySelector<SVGSVGElement>(".chart-area svg.recharts-surface");
                if (!svg) return;
                setExportFailure(undefined);
                const legend = series.map((item, index) => ({
                  name: seriesName(item, horizontal, twoAxes),
                  color: palette[index % palette.length] ?? "#000",
                }));
                // The file stands alone: the question as its title, what is drawn by what, every series named.
                chartPng(svg, legend, { title: question ?? description, caption: description })
                  .then((blob) => downloadBlob(blob, exportFileName(question, "png")))
                  .catch((error: unknown) => setExportFailure((error as Error).message));
              }}
            >
              Download PNG
            </button>
            {exportFailure ? <span role="alert">{exportFailure}</span> : null}
          </div>
        </figure>
      )}
    </div>
  );
}
