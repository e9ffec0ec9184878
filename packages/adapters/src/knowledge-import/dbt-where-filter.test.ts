import { describe, expect, it } from "vitest";
import type { DbtSemanticModel } from "./dbt-manifest-schema";
import { DbtFilterElements, renderWhereFilter } from "./dbt-where-filter";

// MetricFlow's filter templates as a dbt project writes them, rendered against two semantic models: orders (entity
// order, dimensions is_test and ordered_at with its own expression, metric_time = ordered_at) and customers (entity
// customer, dimension region), the way `nlq knowledge import` puts them in a metric's definition.
const orders: DbtSemanticModel = {
  unique_id: "semantic_model.shop.orders",
  name: "orders",
  entities: [
    { name: "order", type: "primary", expr: "order_id" },
    { name: "customer", type: "foreign", expr: "customer_id" },
  ],
  dimensions: [
    { name: "is_test", type: "categorical" },
    { name: "ordered_at", type: "time", expr: "created_at::date" },
  ],
  defaults: { agg_time_dimension: "ordered_at" },
};
const customers: DbtSemanticModel = {
  unique_id: "semantic_model.shop.customers",
  name: "customers",
  entities: [{ name: "customer", type: "primary", expr: "customer_id" }],
  dimensions: [{ name: "region", type: "categorical", expr: "region_code" }],
};
const elements = new DbtFilterElements([
  { model: orders, table: "analytics.orders" },
  { model: customers, table: "analytics.dim_customers" },
]);
const render = (template: string) => renderWhereFilter(template, elements, ["analytics.orders"]);

describe("renderWhereFilter", () => {
  it("turns the metric's own dimensions, entities and time dimensions into its table's SQL", () => {
    expect(render("{{ Dimension('order__is_test') }} = false")).toEqual({ sql: "is_test = false", tables: [] });
    expect(render(`{{Dimension("ORDER__IS_TEST")}} is not true and {{ Entity('order') }} > 10`)).toEqual({
      sql: "is_test is not true and order_id > 10",
      tables: [],
    });
    expect(render("{{ TimeDimension('order__ordered_at', 'month') }} >= '2024-01-01'").sql).toBe(
      "date_trunc('month', created_at::date) >= '2024-01-01'",
    );
    expect(render("{{ TimeDimension('metric_time', 'day') }} < current_date").sql).toBe(
      "date_trunc('day', created_at::date) < current_date",
    );
    expect(render("{{ Dimension('order__ordered_at').grain('week') }} = '2024-01-01'").sql).toBe(
      "date_trunc('week', created_at::date) = '2024-01-01'",
    );
  });

  it("qualifies another model's dimension by its table and names that table", () => {
    expect(render("{{ Dimension('customer__region') }} = 'EMEA'")).toEqual({
      sql: "analytics.dim_customers.region_code = 'EMEA'",
      tables: ["analytics.dim_customers"],
    });
  });

  it("keeps a template it cannot resolve whole, as dbt wrote it", () => {
    for (const template of [
      "{{ Dimension('order__channel') }} = 'web'",
      "{{ Dimension('order__is_test') }} = false and {{ Metric('revenue', group_by=['order']) }} > 100",
      "{{ TimeDimension('order__ordered_at', 'fortnight') }} > '2024-01-01'",
      "{{ Entity('order').grain('day') }} = 1",
    ]) {
      expect(render(template)).toEqual({ sql: template, tables: [] });
    }
    // metric_time of a metric over two tables is not one column.
    const both = renderWhereFilter("{{ TimeDimension('metric_time', 'day') }} > '2024-01-01'", elements, [
      "analytics.orders",
      "analytics.dim_customers",
    ]);
    expect(both.sql).toContain("{{ TimeDimension('metric_time', 'day') }}");
  });
});
