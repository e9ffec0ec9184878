import { describe, expect, it } from "vitest";
import { chartData, columnRole, planChart } from "./chart-plan";

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
    expect(plan).toMatchObject({ kind: "bar", labelColumn: 1, valueColumns: [2] });
    const single = planChart(
      [field("product_id", int4), field("revenue", numeric)],
      rows(5, (index) => [String(index), "1"]),
    );
    expect(single).toMatchObject({ kind: "bar", labelColumn: 0, valueColumns: [1], choices: ["bar", "line", "none"] });
  });

  it("draws one measure per category as bars and over time as a line", () => {
    expect(
      planChart(
        [field("country", text), field("customers", int8)],
        rows(4, (index) => [`c${index}`, "3"]),
      ),
    ).toMatchObject({
      kind: "bar",
      labelColumn: 0,
      valueColumns: [1],
    });
    expect(
      planChart(
        [field("month", date), field("orders", int8), field("revenue", numeric)],
        rows(12, (index) => [`2025-0${index}-01`, "1", "2"]),
      ),
    ).toMatchObject({
      kind: "line",
      labelColumn: 0,
      valueColumns: [1, 2],
    });
    expect(
      planChart(
        [field("year", int4), field("orders", int8)],
        rows(4, (index) => [String(2020 + index), "5"]),
      ).kind,
    ).toBe("line");
  });

  it("splits one measure by a second category: stacked bars, or one line per category over time", () => {
    const byStoreAndStatus = planChart(
      [field("store", text), field("status", text), field("orders", int8)],
      rows(6, (index) => [`s${index % 3}`, index < 3 ? "open" : "closed", "2"]),
    );
    expect(byStoreAndStatus).toMatchObject({
      kind: "stacked",
      labelColumn: 0,
      seriesColumn: 1,
      choices: ["stacked", "grouped", "none"],
    });
    const overTime = planChart(
      [field("month", date), field("country", text), field("revenue", numeric)],
      rows(6, (index) => [`2025-0${index % 3}-01`, index < 3 ? "DE" : "FR", "2"]),
    );
    expect(overTime).toMatchObject({ kind: "line", labelColumn: 0, seriesColumn: 1 });
  });

  it("keeps rates apart from counts and draws nothing for single values, text only or too many bars", () => {
    const mixed = planChart(
      [field("carrier", text), field("late_shipments", int8), field("late_rate_pct", numeric)],
      rows(4, (index) => [`c${index}`, "3", "0.4"]),
    );
    expect(mixed).toMatchObject({ kind: "bar", valueColumns: [1] });
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
      { key: "series0", name: "open" },
      { key: "series1", name: "closed" },
    ]);
    expect(data.points).toEqual([
      { label: "A", series0: 1, series1: 2 },
      { label: "B", series0: 3 },
    ]);
  });
});
