import { describe, expect, it } from "vitest";
import type { SchemaColumn } from "../crush/schema-column";
import { inferKeyLinks } from "../crush/schema-graph";
import { createStructureExpansion } from "./structure-expansion";

const columns: SchemaColumn[] = [
  { database: "music", table: "singer", column: "singer_id" }, // 0
  { database: "music", table: "singer", column: "name" }, // 1
  { database: "music", table: "concert", column: "concert_id" }, // 2
  { database: "music", table: "concert", column: "concert_name" }, // 3
  { database: "music", table: "singer_in_concert", column: "singer_id" }, // 4
  { database: "music", table: "singer_in_concert", column: "concert_id" }, // 5
  { database: "music", table: "stadium", column: "stadium_id" }, // 6
  { database: "shop", table: "singer", column: "singer_id" }, // 7
  { database: "shop", table: "singer", column: "fee" }, // 8
];

describe("createStructureExpansion", () => {
  const expand = createStructureExpansion(columns, inferKeyLinks(columns));

  it("inserts the join path through a bridge table when the second selected table appears", () => {
    expect(expand([1, 3, 8, 6], 20)).toEqual([1, 3, 2, 5, 0, 4, 8, 6]);
  });

  it("never joins across databases and leaves a single table alone", () => {
    expect(expand([1, 8], 20)).toEqual([1, 8]);
  });

  it("cuts to the limit and only expands tables ranked among the seed columns", () => {
    expect(expand([1, 3, 8], 3)).toEqual([1, 3, 2]);
    const narrow = createStructureExpansion(columns, inferKeyLinks(columns), { seedColumns: 1 });
    expect(narrow([1, 3], 20)).toEqual([1, 3]);
  });
});
