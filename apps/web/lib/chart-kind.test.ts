import { describe, expect, it } from "vitest";
import { chartPoints, chartSeries, planChart } from "./chart-kind";

const text = 25;
const int8 = 20;
const numeric = 1700;
const date = 1082;
const timestamptz = 1184;
const field = (name: string, dataTypeId: number) => ({ name, dataTypeId });

describe("planChart", () => {
  it("draws a bar chart for one label column and numeric columns", () => {
    const plan = planChart([field("country", text), field("customers", int8), field("revenue", numeric)], 5);
    expect(plan).toEqual({ kind: "bar", labelColumn: 0, valueColumns: [1, 2] });
  });

  it("draws a line chart when the label column is a date or timestamp", () => {
    expect(planChart([field("day", date), field("orders", int8)], 30).kind).toBe("line");
    expect(planChart([field("orders", int8), field("at", timestamptz)], 3)).toEqual({
      kind: "line",
      labelColumn: 1,
      valueColumns: [0],
    });
  });

  it("draws nothing for a single value, a single row, text only, two label columns or only numbers", () => {
    expect(planChart([field("count", int8)], 1).kind).toBe("none");
    expect(planChart([field("country", text), field("customers", int8)], 1).kind).toBe("none");
    expect(planChart([field("first", text), field("last", text)], 4).kind).toBe("none");
    expect(planChart([field("country", text), field("city", text), field("customers", int8)], 4).kind).toBe("none");
    expect(planChart([field("year", int8), field("customers", int8)], 4).kind).toBe("none");
  });

  it("gives up on bar charts with too many bars but not on line charts", () => {
    expect(planChart([field("name", text), field("total", numeric)], 41).kind).toBe("none");
    expect(planChart([field("day", date), field("total", numeric)], 1000).kind).toBe("line");
  });
});

describe("chartPoints and chartSeries", () => {
  it("parses numbers, keeps NULL as null and names each series after its column", () => {
    const fields = [field("country", text), field("revenue", numeric)];
    const plan = planChart(fields, 3);
    expect(chartSeries(fields, [["Chile", "10.5"]], plan)).toEqual([{ key: "value1", name: "revenue", axis: "left" }]);
    expect(
      chartPoints(
        [
          ["Chile", "10.5"],
          ["Peru", null],
          [null, "3"],
        ],
        plan,
      ),
    ).toEqual([
      { label: "Chile", value1: 10.5 },
      { label: "Peru", value1: null },
      { label: "NULL", value1: 3 },
    ]);
  });

  it("moves a series far smaller than the largest one to the right axis", () => {
    const fields = [field("month", date), field("orders", int8), field("revenue", numeric), field("refunds", numeric)];
    const rows = [
      ["2026-01-01", "120", "61000.5", "9000"],
      ["2026-02-01", "95", "-72000", "4000"],
    ];
    const plan = planChart(fields, rows.length);
    expect(chartSeries(fields, rows, plan).map((series) => [series.name, series.axis])).toEqual([
      ["orders", "right"],
      ["revenue", "left"],
      ["refunds", "left"],
    ]);
  });

  it("returns no points when there is no chart", () => {
    expect(chartPoints([["1"]], { kind: "none", labelColumn: -1, valueColumns: [] })).toEqual([]);
  });
});
