import { describe, expect, it } from "vitest";
import type { Catalog, TableInfo } from "../../catalog/catalog-types";
import { keywordGrams, liveLookupColumns, liveValueStatements } from "./live-value-statement";

function table(
  name: string,
  kind: TableInfo["kind"],
  columns: Array<[string, string]>,
  extra: Partial<TableInfo> = {},
) {
  return {
    schema: "public",
    name,
    kind,
    comment: null,
    primaryKey: [],
    foreignKeys: [],
    columns: columns.map(([column, dataType]) => ({ name: column, dataType, nullable: true, comment: null })),
    ...extra,
  } satisfies TableInfo;
}

describe("live value lookup statements", () => {
  it("reads text columns of ordinary and partitioned tables only: no view, key, enum or non-text column", () => {
    const catalog: Catalog = {
      tables: [
        table(
          "customer",
          "table",
          [
            ["id", "integer"],
            ["city", "text"],
            ["country_code", "character varying(2)"],
            ["mood", "mood"],
          ],
          {
            primaryKey: ["id"],
          },
        ),
        table(
          "sales",
          "partitioned-table",
          [
            ["region", "text"],
            ["customer_name", "text"],
          ],
          {
            foreignKeys: [
              {
                name: "f",
                columns: ["customer_name"],
                referencedSchema: "public",
                referencedTable: "customer",
                referencedColumns: ["city"],
              },
            ],
          },
        ),
        table("city_view", "view", [["city", "text"]]),
        table("city_summary", "materialized-view", [["city", "text"]]),
        table("remote", "foreign-table", [["city", "text"]]),
      ],
    };
    const statements = liveValueStatements(catalog, ["Missisauga"], { limitPerColumn: 5 });
    expect(statements.map((statement) => [statement.table, statement.columns.map((column) => column.column)])).toEqual([
      ["public.customer", ["city", "country_code"]],
      ["public.sales", ["region"]],
    ]);
    const enumTable = {
      ...table("t", "table", [["mood", "text"]]),
      columns: [{ name: "mood", dataType: "text", nullable: true, comment: null, enumValues: ["sad"] }],
    };
    expect(liveLookupColumns(enumTable)).toEqual([]);
  });

  it("schema-qualifies every operator and function, escapes LIKE wildcards and quotes, and bounds each column", () => {
    const catalog: Catalog = { tables: [table("t", "table", [["Label", "text"]])] };
    const [statement] = liveValueStatements(catalog, ["50%_o'k\\x"], { limitPerColumn: 7 });
    expect(statement!.sql).toContain('FROM "public"."t"');
    expect(statement!.sql).toContain('pg_catalog.lower("Label"::pg_catalog.text)');
    expect(statement!.sql).toContain("OPERATOR(pg_catalog.~~) ANY (ARRAY[");
    expect(statement!.sql).toContain("E'%0\\\\%\\\\_%'"); // the gram "0%_" with both wildcards escaped
    expect(statement!.sql).toContain("E'%o''k%'");
    expect(statement!.sql).toContain("LIMIT 7)");
    expect(statement!.sql).not.toMatch(/ILIKE|[^.]lower\(| LIKE /);
  });

  it("looks nothing up for keywords without a 3-gram and caps long keywords at 12 grams", () => {
    expect(
      liveValueStatements({ tables: [table("t", "table", [["name", "text"]])] }, ["ab", " "], { limitPerColumn: 5 }),
    ).toEqual([]);
    expect(keywordGrams(["Missisauga"])[0]).toEqual(["mis", "iss", "ssi", "sis", "isa", "sau", "aug", "uga"]);
    expect(keywordGrams(["a rather long keyword phrase here"])[0]).toHaveLength(12);
  });
});
