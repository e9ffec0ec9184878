import { DAY_MS, formatTimestamp, parseDate, sampleOrderDay, timeOfDay } from "./demo-calendar";
import { countryByCode, usdRate } from "./demo-places";
import { createZipfSampler, type DemoRandom, roundMoney, shuffled } from "./demo-random";
import type { DemoRow } from "./demo-types";
import type { ProductFacts } from "./generate-catalog-rows";
import type { CustomerProfile } from "./generate-customer-rows";
import type { StoreFacts } from "./generate-organization-rows";

/** An order line before rendering. */
export interface OrderLine {
  readonly lineNumber: number;
  readonly product: ProductFacts;
  readonly quantity: number;
  readonly unitPrice: number;
  readonly discountPercent: number;
  readonly lineTotal: number;
}

/** An order whose status the fulfilment generator settles. */
export interface OrderDraft {
  readonly orderId: number;
  readonly customer: CustomerProfile;
  readonly store: StoreFacts;
  readonly employeeId: number | null;
  readonly orderedAt: number;
  readonly lines: OrderLine[];
  readonly currency: string;
  readonly subtotal: number;
  readonly discountAmount: number;
  readonly shippingFee: number;
  readonly taxAmount: number;
  readonly totalAmount: number;
  readonly usdExchangeRate: number;
  readonly totalAmountUsd: number;
  readonly promoCode: string | null;
  status: "pending" | "processing" | "shipped" | "delivered" | "cancelled" | "returned";
}

const shippingFees: Record<string, [fee: number, freeFrom: number]> = {
  USD: [5.99, 75],
  EUR: [4.99, 60],
  GBP: [3.99, 50],
  CAD: [7.99, 99],
  BRL: [24.9, 299],
};

/** Generates orders and their lines: seasonal dates, Zipf-popular customers and products, local currencies and taxes. */
export function generateOrderDrafts(
  random: DemoRandom,
  options: {
    anchorDate: string;
    count: number;
    customers: CustomerProfile[];
    products: ProductFacts[];
    stores: StoreFacts[];
  },
): OrderDraft[] {
  const anchor = parseDate(options.anchorDate);
  const firstDay = parseDate("2022-01-01");
  const days: number[] = [];
  for (let index = 0; index < options.count; index++) days.push(sampleOrderDay(random, firstDay, anchor - DAY_MS));
  const instants = days.map((day) => timeOfDay(random, day)).sort((left, right) => left - right);

  const pickCustomer = createCustomerPicker(random, options.customers);
  const productsByPopularity = shuffled(random, options.products);
  const nextProduct = createZipfSampler(random, productsByPopularity.length, 0.8);

  return instants.map((orderedAt, index) => {
    const customer = pickCustomer(orderedAt);
    const store = pickStore(customer, orderedAt);
    const country = countryByCode(customer.country);
    const rate = usdRate(store.currency, orderedAt);
    const month = new Date(orderedAt).getUTCMonth();
    const lineCount = random.weighted<number>([
      [1, 30],
      [2, 30],
      [3, 20],
      [4, 11],
      [5, 6],
      [6, 3],
    ]);
    const lines: OrderLine[] = [];
    const chosen = new Set<number>();
    for (let attempt = 0; lines.length < lineCount && attempt < 60; attempt++) {
      const product = productsByPopularity[nextProduct()] as ProductFacts;
      if (product.launchedAt > orderedAt || chosen.has(product.productId)) continue;
      if (product.discontinuedAt !== null && product.discontinuedAt < orderedAt) continue;
      chosen.add(product.productId);
      const yearsBeforeAnchor = (anchor - orderedAt) / (365 * DAY_MS);
      const priceUsd = product.listPriceUsd / (1 + 0.04 * yearsBeforeAnchor);
      const unitPrice = roundMoney(priceUsd / rate);
      const quantity = random.weighted<number>([
        [1, 70],
        [2, product.listPriceUsd < 60 ? 25 : 8],
        [3, product.listPriceUsd < 60 ? 8 : 1],
        [random.int(4, 12), product.listPriceUsd < 30 ? 4 : 0.2],
      ]);
      const onSale = random.chance(month === 10 ? 0.45 : month === 0 || month === 6 ? 0.25 : 0.08);
      const discountPercent = onSale ? random.pick([10, 15, 20, 25, 30]) : 0;
      const lineTotal = roundMoney(quantity * unitPrice * (1 - discountPercent / 100));
      lines.push({ lineNumber: lines.length + 1, product, quantity, unitPrice, discountPercent, lineTotal });
    }
    if (lines.length === 0) {
      const product =
        options.products.find((candidate) => candidate.launchedAt <= orderedAt) ??
        (options.products[0] as ProductFacts);
      const unitPrice = roundMoney(product.listPriceUsd / rate);
      lines.push({ lineNumber: 1, product, quantity: 1, unitPrice, discountPercent: 0, lineTotal: unitPrice });
    }
    const subtotal = roundMoney(lines.reduce((sum, line) => sum + line.lineTotal, 0));
    const promoCode = random.chance(0.1)
      ? random.pick(month === 10 ? ["BLACKFRIDAY20", "WELCOME10"] : ["WELCOME10", "SPRING15", "FREESHIP", "welcome10"])
      : null;
    const promoPercent =
      promoCode === null ? 0 : /20/.test(promoCode) ? 20 : /15/.test(promoCode) ? 15 : /10/i.test(promoCode) ? 10 : 0;
    const discountAmount = roundMoney((subtotal * promoPercent) / 100);
    const [fee, freeFrom] = shippingFees[store.currency] ?? [5, 50];
    const shippingFee = store.channel === "retail" || promoCode === "FREESHIP" || subtotal >= freeFrom ? 0 : fee;
    const taxAmount = roundMoney((subtotal - discountAmount) * country.taxRate);
    const totalAmount = roundMoney(subtotal - discountAmount + shippingFee + taxAmount);
    return {
      orderId: index + 1,
      customer,
      store,
      employeeId: store.channel === "retail" ? pickEmployee(store, orderedAt) : null,
      orderedAt,
      lines,
      currency: store.currency,
      subtotal,
      discountAmount,
      shippingFee,
      taxAmount,
      totalAmount,
      usdExchangeRate: rate,
      totalAmountUsd: roundMoney(totalAmount * rate),
      promoCode,
      status: "delivered",
    };
  });

  function pickStore(customer: CustomerProfile, orderedAt: number): StoreFacts {
    const open = options.stores.filter(
      (store) =>
        store.servesCountries.includes(customer.country) &&
        store.openedAt <= orderedAt &&
        (store.closedAt === null || store.closedAt > orderedAt),
    );
    const weightedStores = open.map((store) => {
      if (store.channel !== "retail") return [store, 6] as const;
      const local = customer.typedCity.trim().toLowerCase() === store.city.toLowerCase();
      return [store, local ? 5 : 0.6] as const;
    });
    return weightedStores.length > 0 ? random.weighted(weightedStores) : (options.stores[0] as StoreFacts);
  }

  function pickEmployee(store: StoreFacts, orderedAt: number): number {
    const active = store.staff.filter(
      (member) => member.hiredAt <= orderedAt && (member.terminatedAt === null || member.terminatedAt >= orderedAt),
    );
    const associates = active.slice(1);
    if (associates.length > 0 && random.chance(0.9)) return random.pick(associates).employeeId;
    return (store.staff[0] as StoreFacts["staff"][number]).employeeId;
  }
}

/**
 * Picks the customer of an order placed at a given instant: only customers who had signed up by then, with
 * Zipf-like popularity (weight 1 / rank^0.6 over a shuffled ranking). Customers are in sign-up order, so the
 * eligible ones are a prefix and a prefix sum of the weights samples them exactly.
 */
function createCustomerPicker(
  random: DemoRandom,
  customers: readonly CustomerProfile[],
): (orderedAt: number) => CustomerProfile {
  const ranks = shuffled(
    random,
    customers.map((_, index) => index),
  );
  const cumulative: number[] = [];
  let total = 0;
  for (const rank of ranks) {
    total += 1 / (rank + 1) ** 0.6;
    cumulative.push(total);
  }
  return (orderedAt) => {
    let eligible = 0;
    let high = customers.length;
    while (eligible < high) {
      const middle = (eligible + high) >>> 1;
      if ((customers[middle] as CustomerProfile).signedUpAt < orderedAt) eligible = middle + 1;
      else high = middle;
    }
    if (eligible === 0) return customers[0] as CustomerProfile;
    const target = random.float() * (cumulative[eligible - 1] as number);
    let low = 0;
    high = eligible - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return customers[low] as CustomerProfile;
  };
}

/** The `orders` row of a draft. */
export function orderRow(draft: OrderDraft): DemoRow {
  return {
    order_id: draft.orderId,
    customer_id: draft.customer.customerId,
    store_id: draft.store.storeId,
    employee_id: draft.employeeId,
    ordered_at: formatTimestamp(draft.orderedAt),
    status: draft.status,
    currency: draft.currency,
    subtotal: draft.subtotal,
    discount_amount: draft.discountAmount,
    shipping_fee: draft.shippingFee,
    tax_amount: draft.taxAmount,
    total_amount: draft.totalAmount,
    usd_exchange_rate: draft.usdExchangeRate,
    total_amount_usd: draft.totalAmountUsd,
    promo_code: draft.promoCode,
  };
}
