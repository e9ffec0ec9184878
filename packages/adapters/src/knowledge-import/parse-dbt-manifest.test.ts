import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DatabaseElements } from "./imported-knowledge";
import { KnowledgeImportError } from "./knowledge-import-error";
import { parseDbtManifest } from "./parse-dbt-manifest";

const file = path.join(import.meta.dirname, "fixtures/dbt-manifest.json");
const manifest = readFileSync(file, "utf8");
// The warehouse as PostgreSQL spells it: analytics.orders (no coupon_code any more), analytics.dim_customers (the
// alias of model customers), raw.shop_orders (a source's identifier); no staging schema.
const warehouse = new DatabaseElements([
  { schema: "analytics", name: "orders", columns: ["order_id", "total_cents", "is_test", "channel", "ordered_at"] },
  { schema: "analytics", name: "dim_customers", columns: ["customer_id", "Region"] },
  { schema: "raw", name: "shop_orders", columns: ["id"] },
]);

describe("parseDbtManifest", () => {
  const imported = parseDbtManifest(manifest, "target/manifest.json", warehouse);
  const byName = new Map(imported.entries.map((entry) => [`${entry.kind}:${entry.name}`, entry]));

  it("imports model, source and column descriptions matched by schema and alias, in the database's spelling", () => {
    expect(byName.get("description:analytics.orders")).toEqual({
      kind: "description",
      name: "analytics.orders",
      text: "One row per order placed in the web shop, test orders included (see is_test).",
      references: ["analytics.orders"],
      externalId: "model.shop.orders",
    });
    expect(byName.get("description:analytics.orders.is_test")?.text).toBe(
      "True for orders placed by the QA team; exclude them from every figure.",
    );
    expect(byName.get("description:analytics.dim_customers.Region")).toMatchObject({
      references: ["analytics.dim_customers.Region"],
      externalId: "model.shop.customers.region",
    });
    expect(byName.get("description:raw.shop_orders")?.externalId).toBe("source.shop.raw.orders");
    expect(byName.get("description:raw.shop_orders.id")?.text).toBe("Order id in the backend.");
    // An empty description is nothing to import; tests and seeds without descriptions add nothing.
    expect(byName.has("description:analytics.orders.channel")).toBe(false);
    expect(imported.entries.some((entry) => entry.externalId?.startsWith("test."))).toBe(false);
  });

  it("reports what the database does not have instead of dropping it", () => {
    expect(imported.unmatched).toEqual([
      {
        externalId: "model.shop.orders.coupon_code",
        element: "analytics.orders.coupon_code",
        reason: "no column coupon_code in analytics.orders",
      },
      {
        externalId: "model.shop.stg_marketing_spend",
        element: "staging.stg_marketing_spend",
        reason: "no table staging.stg_marketing_spend in the database",
      },
      {
        externalId: "metric.shop.marketing_spend",
        element: "staging.stg_marketing_spend",
        reason: "metric marketing_spend: no table staging.stg_marketing_spend in the database",
      },
    ]);
  });

  it("turns exposures into terms naming the tables they are built on", () => {
    expect(byName.get("term:Weekly revenue dashboard")).toEqual({
      kind: "term",
      name: "Weekly revenue dashboard",
      text: "The board's weekly revenue dashboard: net revenue by region, Monday to Sunday. (dbt dashboard) Built on analytics.orders, analytics.dim_customers.",
      references: ["analytics.orders", "analytics.dim_customers"],
      externalId: "exposure.shop.weekly_revenue",
    });
  });

  it("turns metrics into metric entries with the measure's SQL, their filters and the tables they need", () => {
    expect(byName.get("metric:Revenue")).toEqual({
      kind: "metric",
      name: "Revenue",
      text: "Revenue in euros, VAT included. Computed over analytics.orders. Only rows where is_test = false.",
      sql: "sum(total_cents / 100.0)",
      references: ["analytics.orders"],
      externalId: "metric.shop.revenue",
    });
    expect(byName.get("metric:Orders")?.sql).toBe("count(order_id)");
    expect(byName.get("metric:Average order value")).toMatchObject({
      sql: "(sum(total_cents / 100.0)) / NULLIF(count(order_id), 0)",
      references: ["analytics.orders"],
    });
    expect(byName.has("metric:Marketing spend")).toBe(false);
  });

  it("names the file and the JSON path of what is malformed", () => {
    const broken = JSON.parse(manifest);
    broken.nodes["model.shop.orders"].columns.is_test.description = 42;
    expect(() => parseDbtManifest(JSON.stringify(broken), "target/manifest.json", warehouse)).toThrowError(
      /^target\/manifest\.json: \$\.nodes\["model\.shop\.orders"\]\.columns\.is_test\.description: /,
    );
    const noNodes = { metadata: {} };
    const error = (() => {
      try {
        parseDbtManifest(JSON.stringify(noNodes), "m.json", warehouse);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(KnowledgeImportError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ file: "m.json", path: "$.nodes", code: "22023" });
    expect(() => parseDbtManifest("{ not json", "m.json", warehouse)).toThrowError(/^m\.json: \$: not JSON/);
  });
});
