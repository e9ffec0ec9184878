import {
  categoriesTable,
  customersTable,
  employeesTable,
  productsTable,
  storesTable,
  suppliersTable,
} from "./demo-schema-catalog";
import {
  orderItemsTable,
  ordersTable,
  paymentsTable,
  productReviewsTable,
  returnsTable,
  shipmentsTable,
} from "./demo-schema-sales";
import type { DemoTableDefinition } from "./demo-types";

/** Every demo table definition in creation order (referenced tables first). */
export const demoTableDefinitions: readonly DemoTableDefinition[] = [
  categoriesTable,
  suppliersTable,
  productsTable,
  storesTable,
  employeesTable,
  customersTable,
  ordersTable,
  orderItemsTable,
  paymentsTable,
  shipmentsTable,
  returnsTable,
  productReviewsTable,
];

/** Names of the demo tables, in creation order. */
export const demoTableNames: readonly string[] = demoTableDefinitions.map((definition) => definition.name);
