import { describe, expect, it } from "vitest";
import { chartData, columnRole, periodLabels, planChart } from "./chart-plan";

const text = 25;
const int4 = 23;
const int8 = 20;
const numeric = 1700;
const date = 1082;
const field = (name: string, dataTypeId: number) => ({ name, dataTypeId });
const rows = (count: number, make: (index: number) => Array<string | null>) =>
  Array.from({ length: count }, (_, index) => make(index));

describe("columnRole", () => {
  it("tells identifiers, time, measures and categories apart", () => {
    expect(columnRole(field("product_id", int4))).toBe("identifier");
    expect(columnRole(field("id", int8))).toBe("identifier");
    expect(columnRole(field("zip", text))).toBe("identifier");
    expect(columnRole(field("year", int4))).toBe("time");
    expect(columnRole(field("ordered_on", date))).toBe("time");
    expect(columnRole(field("revenue", numeric))).toBe("measure");
    expect(columnRole(field("country", text))).toBe("category");
  });
});

describe("planChart", () => {
  it("never plots an identifier as a measure: product_id labels the bars of revenue", () => {
    const fields = [field("product_id", int4), field("name", text), field("revenue", numeric)];
    const plan = planChart(
      fields,
      rows(5, (index) => [String(index), `p${index}`, String(index * 10)]),
    );
    expect(plan).toMatchObject({ kind: "bar", labelColumn: 1, valueColumns: [2], horizontal: false });
    const single = planChart(
      [field("product_id", int4), field("revenue", numeric)],
      rows(5, (index) => [String(index), "1"]),
    );
    expect(single).toMatchObject({ kind: "bar", labelColumn: 0, valueColumns: [1], choices: ["bar", "none"] });
  });

  it("draws the measure the question asks for, not the count beside it, and no split by an attribute of the label", () => {
    // "what is the average order value by store?": store, channel, orders, average_order_value_usd (14 stores).
    const fields = [
      field("store", text),
      field("channel", text),
      field("orders", int8),
      field("average_order_value_usd", numeric),
    ];
    const stores = rows(14, (index) => [`Store number ${index}`, index < 5 ? "online" : "retail", "400", "95.5"]);
    const plan = planChart(fields, stores, { question: "What is the average order value by store?" });
    expect(plan).toMatchObject({ kind: "bar", labelColumn: 0, valueColumns: [3], horizontal: true });
    expect(plan.seriesColumn).toBeUndefined();
    expect(plan.measureChoices).toEqual([2, 3]);
    expect(plan.labelChoices).toEqual([0, 1]);
    // The user's pick wins over the question: both measures, the count on its own axis (400 vs 95.5 share one).
    const picked = planChart(fields, stores, { question: "average order value by store", valueColumns: [2, 3] });
    expect(picked.valueColumns).toEqual([2, 3]);
  });

  it("puts measures of different scales on a second axis and keeps rates off the counts' axis", () => {
    const fields = [field("month", date), field("orders", int8), field("revenue_usd", numeric)];
    const months = rows(12, (index) => [`2025-${String(index + 1).padStart(2, "0")}-01`, "100", "60000"]);
    const both = planChart(fields, months);
    expect(both).toMatchObject({ kind: "line", labelColumn: 0, valueColumns: [1, 2], secondAxisColumns: [2] });
    expect(planChart(fields, months, { question: "show the monthly revenue trend" })).toMatchObject({
      valueColumns: [2],
    });
    expect(planChart(fields, months, { question: "show the monthly revenue trend" }).secondAxisColumns).toBeUndefined();
    const mixed = planChart(
      [field("carrier", text), field("late_shipments", int8), field("late_rate_pct", numeric)],
      rows(4, (index) => [`c${index}`, "3", "0.4"]),
    );
    expect(mixed).toMatchObject({ kind: "bar", valueColumns: [1, 2], secondAxisColumns: [2] });
    const close = planChart(
      [field("country", text), field("orders", int8), field("returns", int8)],
      rows(4, (index) => [`c${index}`, "30", "4"]),
    );
    expect(close.secondAxisColumns).toBeUndefined();
  });

  it("draws one measure per category as bars and over time as a line", () => {
    expect(
      planChart(
        [field("country", text), field("customers", int8)],
        rows(4, (index) => [`c${index}`, "3"]),
      ),
    ).toMatchObject({ kind: "bar", labelColumn: 0, valueColumns: [1], horizontal: false });
    expect(
      planChart(
        [field("year", int4), field("orders", int8)],
        rows(4, (index) => [String(2020 + index), "5"]),
      ).kind,
    ).toBe("line");
  });

  it("lets the user put another column on the x axis", () => {
    const fields = [field("store", text), field("channel", text), field("orders", int8)];
    const data = rows(6, (index) => [`s${index}`, index < 3 ? "online" : "retail", "2"]);
    // Channel repeats: per channel the stores split the bars.
    expect(planChart(fields, data, { labelColumn: 1 })).toMatchObject({
      kind: "grouped",
      labelColumn: 1,
      seriesColumn: 0,
    });
  });

  it("splits one measure by a second category that varies within a label: grouped bars, or lines over time", () => {
    const byStoreAndStatus = planChart(
      [field("store", text), field("status", text), field("orders", int8)],
      rows(6, (index) => [`s${index % 3}`, index < 3 ? "open" : "closed", "2"]),
    );
    expect(byStoreAndStatus).toMatchObject({
      kind: "grouped",
      labelColumn: 0,
      seriesColumn: 1,
      choices: ["grouped", "stacked", "none"],
    });
    const rates = planChart(
      [field("store", text), field("status", text), field("late_percent", numeric)],
      rows(6, (index) => [`s${index % 3}`, index < 3 ? "open" : "closed", "2"]),
    );
    expect(rates.choices).toEqual(["grouped", "none"]);
    const overTime = planChart(
      [field("month", date), field("country", text), field("revenue", numeric)],
      rows(6, (index) => [`2025-0${(index % 3) + 1}-01`, index < 3 ? "DE" : "FR", "2"]),
    );
    expect(overTime).toMatchObject({ kind: "line", labelColumn: 0, seriesColumn: 1 });
  });

  it("draws nothing for single values, text only, too many bars or repeated labels", () => {
    expect(planChart([field("count", int8)], [["1"]]).kind).toBe("none");
    expect(
      planChart(
        [field("first", text), field("last", text)],
        rows(4, () => ["a", "b"]),
      ).kind,
    ).toBe("none");
    expect(
      planChart(
        [field("name", text), field("total", numeric)],
        rows(41, (index) => [`n${index}`, "1"]),
      ).kind,
    ).toBe("none");
    expect(
      planChart(
        [field("customer_id", int4), field("city", text)],
        rows(4, (index) => [String(index), "x"]),
      ).kind,
    ).toBe("none");
    expect(
      planChart(
        [field("city", text), field("orders", int8), field("revenue", numeric)],
        rows(4, () => ["Berlin", "1", "2"]),
      ).kind,
    ).toBe("none");
  });
});

describe("chartData", () => {
  it("pivots the second category into one series per value", () => {
    const fields = [field("store", text), field("status", text), field("orders", int8)];
    const data = chartData(
      fields,
      [
        ["A", "open", "1"],
        ["A", "closed", "2"],
        ["B", "open", "3"],
      ],
      { kind: "stacked", labelColumn: 0, valueColumns: [2], seriesColumn: 1, choices: [] },
    );
    expect(data.series).toEqual([
      { key: "series0", name: "open", axis: "first" },
      { key: "series1", name: "closed", axis: "first" },
    ]);
    expect(data.points).toEqual([
      { label: "A", series0: 1, series1: 2 },
      { label: "B", series0: 3 },
    ]);
  });

  it("names the second axis's series and labels months as periods", () => {
    const fields = [field("month", date), field("orders", int8), field("revenue_usd", numeric)];
    const data = chartData(
      fields,
      [
        ["2025-11-01", "90", "50000"],
        ["2025-12-01", "120", "61000"],
      ],
      { kind: "line", labelColumn: 0, valueColumns: [1, 2], secondAxisColumns: [2], choices: [] },
    );
    expect(data.series).toEqual([
      { key: "value1", name: "orders", axis: "first" },
      { key: "value2", name: "revenue_usd", axis: "second" },
    ]);
    expect(data.points.map((point) => point.label)).toEqual(["Nov 2025", "Dec 2025"]);
  });
});

describe("periodLabels", () => {
  it("shortens first-of-month and first-of-year dates and leaves other values alone", () => {
    expect(periodLabels(["2024-01-01", "2025-01-01"])).toEqual(["2024", "2025"]);
    expect(periodLabels(["2025-03-01 00:00:00+00", "2025-04-01 00:00:00+00"])).toEqual(["Mar 2025", "Apr 2025"]);
    expect(periodLabels(["2025-03-04", "2025-03-05"])).toEqual(["2025-03-04", "2025-03-05"]);
    expect(periodLabels(["2020", "2021"])).toEqual(["2020", "2021"]);
  });
});
