import { describe, expect, it } from "vitest";
import { createCatalogEmbeddingModel } from "./catalog-embedding-model";
import { type SchemaColumn, schemaColumnKey } from "./schema-column";
import { createSchemaRetriever, hallucinatedElementText } from "./schema-retriever";

const columns: SchemaColumn[] = [
  { database: "shop", table: "customers", column: "customer_id" },
  { database: "shop", table: "customers", column: "name" },
  { database: "shop", table: "customers", column: "country" },
  { database: "shop", table: "orders", column: "customerid" },
  { database: "shop", table: "orders", column: "total_amount" },
  { database: "shop", table: "orders", column: "order_date" },
  { database: "racing", table: "drivers", column: "surname" },
  { database: "racing", table: "drivers", column: "nationality" },
  { database: "racing", table: "results", column: "points", description: "championship points scored" },
];

describe("schema retriever", () => {
  it("answers question-only and CRUSH requests with any embedding model", async () => {
    const retriever = await createSchemaRetriever({ columns, embeddingModel: createCatalogEmbeddingModel(columns) });
    const byQuestion = await retriever.retrieveByQuestion({ question: "What nationality do drivers have?", budget: 2 });
    expect(byQuestion.map(schemaColumnKey)).toContain("racing.drivers.nationality");
    const collective = await retriever.retrieveCollectively({
      question: "Total amount spent by customers from France",
      hallucinated: ["Customers(customer_id, country)", "Orders(customer_id, total_amount)"],
      budget: 4,
    });
    expect(collective.map(schemaColumnKey).sort()).toEqual([
      "shop.customers.country",
      "shop.customers.customer_id",
      "shop.orders.customerid",
      "shop.orders.total_amount",
    ]);
  });

  it("falls back to the question ranking without a hallucinated schema", async () => {
    const retriever = await createSchemaRetriever({ columns, embeddingModel: createCatalogEmbeddingModel(columns) });
    const collective = await retriever.retrieveCollectively({ question: "points scored", hallucinated: [], budget: 1 });
    expect(collective.map(schemaColumnKey)).toEqual(["racing.results.points"]);
  });

  it("embeds a hallucinated element as table.column plus the column again", () => {
    expect(hallucinatedElementText("Posts", "title")).toBe("Posts.title title");
    expect(hallucinatedElementText("Posts", "")).toBe("Posts");
  });
});
