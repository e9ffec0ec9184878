import { createDemoRandom, roundMoney } from "./demo-random";
import { demoTableDefinitions } from "./demo-schema";
import type { DemoDataset, DemoRow, DemoTable } from "./demo-types";
import { generateCatalogRows } from "./generate-catalog-rows";
import { generateCustomerProfiles, loyaltyTier } from "./generate-customer-rows";
import { generateFulfilmentRows } from "./generate-fulfilment-rows";
import { generateOrderDrafts, orderRow } from "./generate-order-drafts";
import { generateOrganizationRows } from "./generate-organization-rows";

/** Options of `generateDemoDataset`. */
export interface GenerateDemoDatasetOptions {
  /** Seed of all randomness. Default: `DEFAULT_DEMO_SEED`. */
  readonly seed?: number;
  /** The data set's "today" (`YYYY-MM-DD`); orders run from 2022-01-01 to the day before. Default: `DEFAULT_DEMO_ANCHOR_DATE`. */
  readonly anchorDate?: string;
  /** Number of customers. Default: 1500. */
  readonly customerCount?: number;
  /** Number of orders. Default: 4000. */
  readonly orderCount?: number;
  /** Number of products. Default: 300. */
  readonly productCount?: number;
}

/** The seed nlq's demo database is generated from. */
export const DEFAULT_DEMO_SEED = 20_260_101;
/** The fixed "today" of nlq's demo database: orders run up to the day before. */
export const DEFAULT_DEMO_ANCHOR_DATE = "2026-11-20";

/**
 * Generates the demo database of "Hearth & Harbor", a home-goods retailer: 12 tables, a few tens of thousands of rows.
 * Pure and deterministic: the same options give the same data set, byte for byte once rendered.
 */
export function generateDemoDataset(options: GenerateDemoDatasetOptions = {}): DemoDataset {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const anchorDate = options.anchorDate ?? DEFAULT_DEMO_ANCHOR_DATE;
  const random = createDemoRandom(seed);
  const catalog = generateCatalogRows(random, {
    anchorDate,
    productCount: options.productCount ?? 300,
    supplierCount: 40,
  });
  const organization = generateOrganizationRows(random, { anchorDate });
  const customers = generateCustomerProfiles(random, { anchorDate, count: options.customerCount ?? 1500 });
  const orders = generateOrderDrafts(random, {
    anchorDate,
    count: options.orderCount ?? 4000,
    customers,
    products: catalog.productFacts,
    stores: organization.storeFacts,
  });
  const fulfilment = generateFulfilmentRows(random, { anchorDate, orders, customers });

  const lifetimeSpend = new Map<number, number>();
  for (const order of orders) {
    if (order.status === "cancelled") continue;
    lifetimeSpend.set(
      order.customer.customerId,
      (lifetimeSpend.get(order.customer.customerId) ?? 0) + order.totalAmountUsd,
    );
  }
  const rowsByTable: Record<string, DemoRow[]> = {
    categories: catalog.categories,
    suppliers: catalog.suppliers,
    products: catalog.products,
    stores: organization.stores,
    employees: organization.employees,
    customers: customers.map((customer) => ({
      ...customer.row,
      loyalty_tier: loyaltyTier(roundMoney(lifetimeSpend.get(customer.customerId) ?? 0)),
    })),
    orders: orders.map(orderRow),
    order_items: orders.flatMap((order) =>
      order.lines.map((line) => ({
        order_id: order.orderId,
        line_number: line.lineNumber,
        product_id: line.product.productId,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        discount_percent: line.discountPercent,
        line_total: line.lineTotal,
      })),
    ),
    payments: fulfilment.payments,
    shipments: fulfilment.shipments,
    returns: fulfilment.returns,
    product_reviews: fulfilment.productReviews,
  };
  const tables: DemoTable[] = demoTableDefinitions.map((definition) => ({
    definition,
    rows: rowsByTable[definition.name] ?? [],
  }));
  return { seed, anchorDate, tables };
}
