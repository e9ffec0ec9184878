import { column, references, table } from "./demo-schema-builder";
import type { DemoTableDefinition } from "./demo-types";

/** Transaction tables of the demo retailer: orders, their lines, payments, shipments, returns and reviews. */

export const ordersTable: DemoTableDefinition = table({
  name: "orders",
  comment:
    "Customer orders (one row per checkout) with amounts in the store's currency and converted to US dollars. Cancelled orders are kept with status 'cancelled'.",
  columns: [
    column("order_id", "integer", "Unique identifier of the order (order number)."),
    column("customer_id", "integer", "Customer who placed the order."),
    column("store_id", "integer", "Store or channel the order was placed in."),
    column(
      "employee_id",
      "integer",
      "Sales associate who handled an in-store order; NULL for online and marketplace orders.",
      {
        nullable: true,
      },
    ),
    column("ordered_at", "timestamptz", "When the order was placed (checkout time)."),
    column(
      "status",
      "text",
      "Fulfilment status: 'pending', 'processing', 'shipped', 'delivered', 'cancelled' or 'returned'.",
      {
        check: "status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled', 'returned')",
      },
    ),
    column("currency", "char(3)", "ISO 4217 currency of all amounts of this order (the store's currency)."),
    column("subtotal", "numeric(12,2)", "Sum of the order lines' totals, in the order currency.", {
      check: "subtotal >= 0",
    }),
    column("discount_amount", "numeric(12,2)", "Order-level discount from a promotion code, in the order currency.", {
      check: "discount_amount >= 0",
    }),
    column(
      "shipping_fee",
      "numeric(12,2)",
      "Shipping charged to the customer, in the order currency (0 for in-store orders).",
      {
        check: "shipping_fee >= 0",
      },
    ),
    column("tax_amount", "numeric(12,2)", "Sales tax or VAT charged, in the order currency.", {
      check: "tax_amount >= 0",
    }),
    column(
      "total_amount",
      "numeric(12,2)",
      "Amount charged: subtotal - discount + shipping + tax, in the order currency.",
      {
        check: "total_amount >= 0",
      },
    ),
    column(
      "usd_exchange_rate",
      "numeric(10,6)",
      "US dollars per one unit of the order currency on the order date (1 for USD).",
      {
        check: "usd_exchange_rate > 0",
      },
    ),
    column(
      "total_amount_usd",
      "numeric(12,2)",
      "Order total converted to US dollars; use it to compare revenue across currencies.",
      {
        check: "total_amount_usd >= 0",
      },
    ),
    column("promo_code", "text", "Promotion code entered at checkout; NULL when none.", { nullable: true }),
  ],
  primaryKey: ["order_id"],
  foreignKeys: [
    references("customer_id", "customers", "customer_id"),
    references("store_id", "stores", "store_id"),
    references("employee_id", "employees", "employee_id"),
  ],
});

export const orderItemsTable: DemoTableDefinition = table({
  name: "order_items",
  comment:
    "Lines of an order: which product, how many, at what price. Prices are in the order's currency at the time of the order.",
  columns: [
    column("order_id", "integer", "Order this line belongs to."),
    column("line_number", "integer", "Position of the line within the order, starting at 1.", {
      check: "line_number > 0",
    }),
    column("product_id", "integer", "Product ordered."),
    column("quantity", "integer", "Number of units ordered.", { check: "quantity > 0" }),
    column("unit_price", "numeric(12,2)", "Price per unit charged, in the order currency, before the line discount.", {
      check: "unit_price >= 0",
    }),
    column("discount_percent", "numeric(5,2)", "Line discount in percent (0-100), e.g. from a sale.", {
      check: "discount_percent BETWEEN 0 AND 100",
    }),
    column("line_total", "numeric(12,2)", "quantity * unit_price minus the line discount, in the order currency.", {
      check: "line_total >= 0",
    }),
  ],
  primaryKey: ["order_id", "line_number"],
  foreignKeys: [references("order_id", "orders", "order_id"), references("product_id", "products", "product_id")],
});

export const paymentsTable: DemoTableDefinition = table({
  name: "payments",
  comment:
    "Money movements for orders: charges (including failed attempts) and refunds. Amounts are positive; kind tells the direction.",
  columns: [
    column("payment_id", "integer", "Unique identifier of the payment."),
    column("order_id", "integer", "Order the payment belongs to."),
    column("kind", "text", "'charge' (money from the customer) or 'refund' (money back to the customer).", {
      check: "kind IN ('charge', 'refund')",
    }),
    column("method", "text", "Payment method: 'card', 'paypal', 'bank_transfer', 'gift_card' or 'cash'.", {
      check: "method IN ('card', 'paypal', 'bank_transfer', 'gift_card', 'cash')",
    }),
    column("status", "text", "'succeeded' or 'failed' (declined card, timeout).", {
      check: "status IN ('succeeded', 'failed')",
    }),
    column("amount", "numeric(12,2)", "Amount in the payment currency, always positive.", { check: "amount > 0" }),
    column("currency", "char(3)", "ISO 4217 currency of the amount (the order currency)."),
    column("processed_at", "timestamptz", "When the payment provider processed the payment."),
  ],
  primaryKey: ["payment_id"],
  foreignKeys: [references("order_id", "orders", "order_id")],
});

export const shipmentsTable: DemoTableDefinition = table({
  name: "shipments",
  comment:
    "Parcels sent for online and marketplace orders (in-store orders have none). A shipment is late when delivered after the promised date.",
  columns: [
    column("shipment_id", "integer", "Unique identifier of the shipment."),
    column("order_id", "integer", "Order shipped.", { unique: true }),
    column("carrier", "text", "Parcel carrier, e.g. 'UPS', 'DHL', 'Royal Mail'."),
    column("tracking_number", "text", "Carrier tracking number.", { unique: true }),
    column("shipped_at", "timestamptz", "When the parcel left the warehouse."),
    column("promised_delivery_date", "date", "Delivery date promised to the customer at checkout."),
    column("delivered_at", "timestamptz", "When the carrier delivered the parcel; NULL while in transit.", {
      nullable: true,
    }),
    column("ship_to_city", "text", "Destination city as typed by the customer."),
    column("ship_to_country", "text", "Destination country as an ISO 3166-1 alpha-2 code."),
  ],
  primaryKey: ["shipment_id"],
  foreignKeys: [references("order_id", "orders", "order_id")],
  checks: ["delivered_at IS NULL OR delivered_at >= shipped_at"],
});

export const returnsTable: DemoTableDefinition = table({
  name: "returns",
  comment: "Order lines sent back by customers, with the reason and the amount refunded (in the order currency).",
  columns: [
    column("return_id", "integer", "Unique identifier of the return."),
    column("order_id", "integer", "Order the returned line belongs to."),
    column("line_number", "integer", "Returned order line (with order_id, references order_items)."),
    column("quantity", "integer", "Units returned.", { check: "quantity > 0" }),
    column(
      "reason",
      "text",
      "Reason given: 'damaged', 'wrong_item', 'not_as_described', 'changed_mind' or 'too_late'.",
      {
        check: "reason IN ('damaged', 'wrong_item', 'not_as_described', 'changed_mind', 'too_late')",
      },
    ),
    column("returned_at", "timestamptz", "When the returned parcel was received."),
    column("refund_amount", "numeric(12,2)", "Amount refunded for this line, in the order currency.", {
      check: "refund_amount >= 0",
    }),
    column("customer_comment", "text", "Free-text comment of the customer; often NULL.", { nullable: true }),
  ],
  primaryKey: ["return_id"],
  foreignKeys: [
    {
      columns: ["order_id", "line_number"],
      referencedTable: "order_items",
      referencedColumns: ["order_id", "line_number"],
    },
  ],
});

export const productReviewsTable: DemoTableDefinition = table({
  name: "product_reviews",
  comment: "Star ratings and reviews customers wrote for products they bought.",
  columns: [
    column("review_id", "integer", "Unique identifier of the review."),
    column("product_id", "integer", "Product reviewed."),
    column("customer_id", "integer", "Customer who wrote the review."),
    column("rating", "smallint", "Star rating from 1 (worst) to 5 (best).", { check: "rating BETWEEN 1 AND 5" }),
    column("title", "text", "Headline of the review; NULL when the customer only gave stars.", { nullable: true }),
    column("body", "text", "Review text; NULL when the customer only gave stars.", { nullable: true }),
    column("is_verified_purchase", "boolean", "True when the review is linked to a delivered order of the customer."),
    column("reviewed_at", "timestamptz", "When the review was posted."),
  ],
  primaryKey: ["review_id"],
  foreignKeys: [
    references("product_id", "products", "product_id"),
    references("customer_id", "customers", "customer_id"),
  ],
});
