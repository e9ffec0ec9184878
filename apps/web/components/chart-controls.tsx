"use client";

import type { ChartKind, ChartPlan } from "../lib/chart-plan";
import type { AnswerField } from "../lib/chat-message";

export const kindNames: Record<ChartKind, string> = {
  bar: "Bar",
  line: "Line",
  stacked: "Stacked bars",
  grouped: "Grouped bars",
  none: "Table only",
};

export interface ChartControlsProps {
  readonly id: string;
  readonly fields: readonly AnswerField[];
  readonly plan: ChartPlan;
  /** The kinds offered (the plan's, or the last drawable plan's when the user's pick cannot be drawn). */
  readonly choices: readonly ChartKind[];
  readonly kind: ChartKind;
  readonly labelColumn: number;
  readonly valueColumns: readonly number[];
  readonly onKind: (kind: ChartKind) => void;
  readonly onLabelColumn: (column: number) => void;
  readonly onValueColumns: (columns: number[]) => void;
}

/** The chart type switch and the user's pick of the x-axis column and of the plotted measures. */
export function ChartControls({
  id,
  fields,
  plan,
  choices,
  kind,
  labelColumn,
  valueColumns,
  onKind,
  onLabelColumn,
  onValueColumns,
}: ChartControlsProps) {
  const labelChoices = plan.labelChoices ?? [];
  const measureChoices = plan.measureChoices ?? [];
  return (
    <div className="chart-controls">
      <fieldset className="chart-switch">
        <legend className="visually-hidden">Chart type</legend>
        {choices.map((choice) => (
          <label key={choice} className={choice === kind ? "chart-choice chart-choice-current" : "chart-choice"}>
            <input
              type="radio"
              name={`${id}-kind`}
              value={choice}
              checked={choice === kind}
              onChange={() => onKind(choice)}
            />
            {kindNames[choice]}
          </label>
        ))}
      </fieldset>
      {labelChoices.length > 1 ? (
        <label className="chart-axis-pick">
          X axis{" "}
          <select value={labelColumn} onChange={(event) => onLabelColumn(Number(event.target.value))}>
            {labelChoices.map((column) => (
              <option key={column} value={column}>
                {fields[column]?.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {measureChoices.length > 1 ? (
        <fieldset className="chart-measures">
          <legend>Plotted</legend>
          {measureChoices.map((column) => (
            <label key={column} className="chart-choice">
              <input
                type="checkbox"
                checked={valueColumns.includes(column)}
                onChange={(event) => {
                  const next = event.target.checked
                    ? [...valueColumns, column]
                    : valueColumns.filter((choice) => choice !== column);
                  if (next.length > 0) onValueColumns(next);
                }}
              />
              {fields[column]?.name}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
