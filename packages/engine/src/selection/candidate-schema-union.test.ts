import { beforeAll, describe, expect, it } from "vitest";
import { loadSqlParser } from "../sql/validate-sql";
import { shopCatalog } from "../testing/selection-setup";
import { candidateSchemaUnion } from "./candidate-schema-union";

beforeAll(() => loadSqlParser());

const shape = (catalog: ReturnType<typeof candidateSchemaUnion>) =>
  catalog?.tables.map((table) => ({
    table: `${table.schema}.${table.name}`,
    columns: table.columns.map((column) => column.name),
    primaryKey: table.primaryKey,
    foreignKeys: table.foreignKeys.map((key) => key.name),
  }));

describe("candidateSchemaUnion", () => {
  it("keeps the tables and columns either query uses, in catalog order, with the keys whose columns stay", () => {
    const union = candidateSchemaUnion(shopCatalog, [
      "SELECT title FROM categories ORDER BY title",
      "SELECT i.name FROM shop.items i JOIN categories c ON c.id = i.category_id",
    ]);
    expect(shape(union)).toEqual([
      {
        table: "shop.items",
        columns: ["id", "name", "category_id"],
        primaryKey: ["id"],
        foreignKeys: ["items_category"],
      },
      { table: "shop.categories", columns: ["id", "title"], primaryKey: ["id"], foreignKeys: [] },
    ]);
  });

  it("drops a key whose columns are not used, keeps every column under *, and matches the schema when qualified", () => {
    expect(shape(candidateSchemaUnion(shopCatalog, ["SELECT name FROM items"]))).toEqual([
      { table: "shop.items", columns: ["name"], primaryKey: [], foreignKeys: [] },
    ]);
    expect(shape(candidateSchemaUnion(shopCatalog, ["SELECT * FROM suppliers"]))?.[0]?.columns).toEqual([
      "id",
      "company",
      "country",
    ]);
    expect(candidateSchemaUnion(shopCatalog, ["SELECT name FROM other.items"])).toBeUndefined();
  });

  it("is undefined when a query does not parse", () => {
    expect(candidateSchemaUnion(shopCatalog, ["SELECT name FROM items", "SELEC name"])).toBeUndefined();
  });
});
