import { DAY_MS, formatDate, formatTimestamp, parseDate } from "./demo-calendar";
import { countryByCode } from "./demo-places";
import { type DemoRandom, roundMoney } from "./demo-random";
import { returnComments, reviewTexts } from "./demo-review-texts";
import type { DemoRow } from "./demo-types";
import type { CustomerProfile } from "./generate-customer-rows";
import type { OrderDraft, OrderLine } from "./generate-order-drafts";

export interface FulfilmentRows {
  readonly payments: DemoRow[];
  readonly shipments: DemoRow[];
  readonly returns: DemoRow[];
  readonly productReviews: DemoRow[];
}

const HOUR_MS = 3_600_000;
const promisedDays: Record<string, number> = { US: 5, GB: 3, DE: 3, FR: 4, CA: 6, BR: 10 };

/**
 * Settles each order's status and generates what happened after checkout: payments (with failed attempts and
 * refunds), shipments (some late, a few lost), returns and reviews. Mutates `draft.status`.
 */
export function generateFulfilmentRows(
  random: DemoRandom,
  options: { anchorDate: string; orders: OrderDraft[]; customers: CustomerProfile[] },
): FulfilmentRows {
  const anchor = parseDate(options.anchorDate);
  const payments: Array<Omit<DemoRow, "payment_id"> & { at: number }> = [];
  const shipments: DemoRow[] = [];
  const returns: Array<Omit<DemoRow, "return_id"> & { at: number }> = [];
  const reviews: Array<Omit<DemoRow, "review_id"> & { at: number }> = [];
  const trackingNumbers = new Set<string>();

  for (const order of options.orders) {
    const country = countryByCode(order.customer.country);
    const method = paymentMethod(order);
    const charge = (at: number, status: "succeeded" | "failed"): void => {
      payments.push({
        order_id: order.orderId,
        kind: "charge",
        method,
        status,
        amount: order.totalAmount,
        currency: order.currency,
        processed_at: formatTimestamp(at),
        at,
      });
    };
    const refund = (at: number, amount: number): void => {
      payments.push({
        order_id: order.orderId,
        kind: "refund",
        method,
        status: "succeeded",
        amount,
        currency: order.currency,
        processed_at: formatTimestamp(at),
        at,
      });
    };
    const paidAt = order.orderedAt + random.int(2, 90) * 1000;
    let deliveredAt: number | null = null;

    if (order.store.channel === "retail") {
      order.status = "delivered";
      deliveredAt = order.orderedAt;
      charge(paidAt, "succeeded");
    } else if (anchor - order.orderedAt > DAY_MS && random.chance(0.045)) {
      order.status = "cancelled";
      if (random.chance(0.5)) {
        charge(paidAt, "succeeded");
        refund(order.orderedAt + random.int(2, 40) * HOUR_MS, order.totalAmount);
      }
    } else if (anchor - order.orderedAt < 16 * HOUR_MS && random.chance(0.7)) {
      order.status = "pending";
    } else {
      if (random.chance(0.05)) charge(paidAt - 30_000, "failed");
      charge(paidAt, "succeeded");
      const shippedAt = order.orderedAt + random.int(5, 72) * HOUR_MS;
      if (shippedAt >= anchor) {
        order.status = "processing";
      } else {
        const carrierIndex = random.int(0, country.carriers.length - 1);
        const carrier = country.carriers[carrierIndex] as string;
        const promised = parseDate(formatDate(order.orderedAt)) + (promisedDays[country.code] ?? 5) * DAY_MS;
        const month = new Date(order.orderedAt).getUTCMonth();
        const delay =
          (month === 11 ? 1.2 : month === 10 ? 0.6 : 0) + (carrierIndex === country.carriers.length - 1 ? 0.8 : 0);
        const transitDays = Math.max(0.4, random.normal((promised - shippedAt) / DAY_MS - 1.1 + delay, 1.1));
        const lost = random.chance(0.004);
        const arrival = shippedAt + Math.round(transitDays * 24) * HOUR_MS;
        deliveredAt = lost || arrival >= anchor ? null : arrival;
        order.status = deliveredAt === null ? "shipped" : "delivered";
        shipments.push({
          shipment_id: shipments.length + 1,
          order_id: order.orderId,
          carrier,
          tracking_number: trackingNumber(carrier),
          shipped_at: formatTimestamp(shippedAt),
          promised_delivery_date: formatDate(promised),
          delivered_at: deliveredAt === null ? null : formatTimestamp(deliveredAt),
          ship_to_city: random.chance(0.9) ? order.customer.typedCity : order.customer.typedCity.trim().toUpperCase(),
          ship_to_country: country.code,
        });
      }
    }
    if (deliveredAt === null) continue;

    const returnedAt =
      deliveredAt + random.int(order.store.channel === "retail" ? 1 : 3, 30) * DAY_MS + random.int(0, 23) * HOUR_MS;
    let refunded = 0;
    if (returnedAt < anchor) {
      for (const line of order.lines) {
        if (!random.chance(line.product.returnRate)) continue;
        const quantity = random.int(1, line.quantity);
        const reason = random.weighted<string>([
          ["damaged", 3],
          ["wrong_item", 1],
          ["not_as_described", (5 - line.product.quality) * 2],
          ["changed_mind", 3],
          ["too_late", 0.4],
        ]);
        const refundAmount = reason === "too_late" ? 0 : roundMoney((line.lineTotal / line.quantity) * quantity);
        refunded += refundAmount;
        returns.push({
          order_id: order.orderId,
          line_number: line.lineNumber,
          quantity,
          reason,
          returned_at: formatTimestamp(returnedAt),
          refund_amount: refundAmount,
          customer_comment: random.chance(0.3) ? random.pick(returnComments) : null,
          at: returnedAt,
        });
        maybeReview(line, order.customer, deliveredAt, true);
      }
    }
    if (returns.length > 0 && returns[returns.length - 1]?.order_id === order.orderId) {
      order.status = "returned";
      if (refunded > 0)
        refund(Math.min(anchor - HOUR_MS, returnedAt + random.int(1, 3) * DAY_MS), roundMoney(refunded));
    }
    for (const line of order.lines) {
      if (!returns.some((entry) => entry.order_id === order.orderId && entry.line_number === line.lineNumber))
        maybeReview(line, order.customer, deliveredAt, false);
    }
  }

  // A few reviews without a matching purchase (gifts, copied accounts).
  for (let index = 0; index < 60; index++) {
    const order = random.pick(options.orders);
    const customer = random.pick(options.customers);
    const line = random.pick(order.lines);
    if (customer.signedUpAt < anchor - 30 * DAY_MS)
      addReview(line, customer, Math.max(customer.signedUpAt, order.orderedAt), false, false);
  }

  return {
    payments: numbered(payments, "payment_id"),
    shipments,
    returns: numbered(returns, "return_id"),
    productReviews: numbered(reviews, "review_id"),
  };

  function maybeReview(line: OrderLine, customer: CustomerProfile, deliveredAt: number, returned: boolean): void {
    if (random.chance(returned ? 0.45 : 0.16)) addReview(line, customer, deliveredAt, returned, true);
  }

  function addReview(
    line: OrderLine,
    customer: CustomerProfile,
    after: number,
    returned: boolean,
    verified: boolean,
  ): void {
    const at = after + random.int(2, 45) * DAY_MS + random.int(0, 86_399) * 1000;
    if (at >= anchor) return;
    const rating = Math.min(5, Math.max(1, Math.round(random.normal(line.product.quality - (returned ? 2 : 0), 0.9))));
    const texts = reviewTexts[rating <= 2 ? "negative" : rating === 3 ? "mixed" : "positive"];
    const [title, body] = random.pick(texts);
    const starsOnly = random.chance(0.3);
    reviews.push({
      product_id: line.product.productId,
      customer_id: customer.customerId,
      rating,
      title: starsOnly ? null : title,
      body: starsOnly || random.chance(0.2) ? null : body,
      is_verified_purchase: verified,
      reviewed_at: formatTimestamp(at),
      at,
    });
  }

  function paymentMethod(order: OrderDraft): string {
    if (order.store.channel === "retail")
      return random.weighted([
        ["card", 75],
        ["cash", 20],
        ["gift_card", 5],
      ] as const);
    const bankTransfer = order.customer.country === "DE" ? 15 : order.customer.country === "BR" ? 25 : 3;
    return random.weighted([
      ["card", 65],
      ["paypal", 25],
      ["gift_card", 4],
      ["bank_transfer", bankTransfer],
    ] as const);
  }

  function trackingNumber(carrier: string): string {
    for (;;) {
      const digits = Array.from({ length: 12 }, () => random.int(0, 9)).join("");
      const candidate =
        carrier === "UPS"
          ? `1Z${digits.slice(0, 6)}${random.int(10, 99)}${digits.slice(6)}`
          : `${carrier.slice(0, 2).toUpperCase()}${digits}`;
      if (!trackingNumbers.has(candidate)) {
        trackingNumbers.add(candidate);
        return candidate;
      }
    }
  }
}

/** Sorts by time (stable) and assigns sequential identifiers, dropping the helper `at` field. */
function numbered(rows: Array<Record<string, unknown> & { at: number }>, idColumn: string): DemoRow[] {
  return rows
    .map((row, position) => ({ row, position }))
    .sort((left, right) => left.row.at - right.row.at || left.position - right.position)
    .map(({ row }, index) => {
      const { at: _at, ...rest } = row;
      return { [idColumn]: index + 1, ...rest } as DemoRow;
    });
}
