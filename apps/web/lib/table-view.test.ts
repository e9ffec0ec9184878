import { describe, expect, it } from "vitest";
import { nextSort, visibleRows } from "./table-view";

const fields = [
  { name: "store", dataTypeId: 25 },
  { name: "orders", dataTypeId: 20 },
  { name: "opened", dataTypeId: 1082 },
];
const rows = [
  ["Berlin Mitte", "90", "2022-03-26"],
  ["Online US", "1000", "2019-03-01"],
  ["store 10", null, null],
  ["store 9", "5", "2023-09-09"],
];

describe("visibleRows", () => {
  it("sorts numbers as numbers, text naturally and NULL last in both directions", () => {
    expect(visibleRows(fields, rows, { sort: { column: 1, direction: "ascending" } })).toEqual([3, 0, 1, 2]);
    expect(visibleRows(fields, rows, { sort: { column: 1, direction: "descending" } })).toEqual([1, 0, 3, 2]);
    expect(visibleRows(fields, rows, { sort: { column: 0, direction: "ascending" } })).toEqual([0, 1, 3, 2]);
    expect(visibleRows(fields, rows, { sort: { column: 2, direction: "descending" } })).toEqual([3, 0, 1, 2]);
  });

  it("keeps the rows holding the filter text in any column, case-insensitively", () => {
    expect(visibleRows(fields, rows, { filter: "STORE" })).toEqual([2, 3]);
    expect(visibleRows(fields, rows, { filter: "2019" })).toEqual([1]);
    expect(visibleRows(fields, rows, { filter: "  " })).toEqual([0, 1, 2, 3]);
  });
});

describe("nextSort", () => {
  it("goes ascending, descending, then back to the query's order", () => {
    const ascending = nextSort(undefined, 1);
    expect(ascending).toEqual({ column: 1, direction: "ascending" });
    const descending = nextSort(ascending, 1);
    expect(descending).toEqual({ column: 1, direction: "descending" });
    expect(nextSort(descending, 1)).toBeUndefined();
    expect(nextSort(descending, 0)).toEqual({ column: 0, direction: "ascending" });
  });
});
