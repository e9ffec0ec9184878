import { DAY_MS, formatDate, parseDate } from "./demo-calendar";
import { demoDepartments } from "./demo-product-lines";
import { type DemoRandom, roundMoney } from "./demo-random";
import type { DemoRow } from "./demo-types";

/** What later generators need to know about a product (beyond its row). */
export interface ProductFacts {
  readonly productId: number;
  readonly listPriceUsd: number;
  /** First day the product could be ordered (ms). */
  readonly launchedAt: number;
  /** Hidden quality: the mean star rating customers tend to give (1-5). */
  readonly quality: number;
  /** Share of units returned, higher for poor quality. */
  readonly returnRate: number;
  /** Last day the product could be ordered (ms), or null while it is sold. */
  readonly discontinuedAt: number | null;
}

export interface CatalogRows {
  readonly categories: DemoRow[];
  readonly suppliers: DemoRow[];
  readonly products: DemoRow[];
  readonly productFacts: ProductFacts[];
}

const supplierCountries: ReadonlyArray<readonly [string, number]> = [
  ["CN", 10],
  ["DE", 4],
  ["US", 5],
  ["IT", 3],
  ["PT", 2],
  ["VN", 3],
  ["IN", 3],
  ["DK", 2],
  ["SE", 2],
  ["MX", 2],
];

const adjectives = [
  "Classic",
  "Modern",
  "Rustic",
  "Nordic",
  "Compact",
  "Deluxe",
  "Essential",
  "Vintage",
  "Heritage",
  "Coastal",
  "Minimalist",
  "Artisan",
  "Urban",
  "Cozy",
  "Premium",
  "Everyday",
];

/** Generates categories (two levels), suppliers (with hand-typed names and a near duplicate) and products. */
export function generateCatalogRows(
  random: DemoRandom,
  options: { anchorDate: string; productCount: number; supplierCount: number },
): CatalogRows {
  const faker = random.fakerFor("US");
  const anchor = parseDate(options.anchorDate);

  const categories: DemoRow[] = [];
  const lines: Array<{
    categoryId: number;
    skuPrefix: string;
    materials: readonly string[];
    line: (typeof demoDepartments)[number]["lines"][number];
  }> = [];
  for (const department of demoDepartments) {
    const departmentId = categories.length + 1;
    categories.push({
      category_id: departmentId,
      name: department.name,
      parent_category_id: null,
      description: department.description,
    });
    for (const productLine of department.lines) {
      const categoryId = categories.length + 1;
      categories.push({
        category_id: categoryId,
        name: productLine.name,
        parent_category_id: departmentId,
        description: random.chance(0.85) ? productLine.description : null,
      });
      lines.push({ categoryId, skuPrefix: department.skuPrefix, materials: department.materials, line: productLine });
    }
  }

  const suppliers: DemoRow[] = [];
  for (let supplierId = 1; supplierId <= options.supplierCount; supplierId++) {
    const name = faker.company.name();
    const contact = faker.person.fullName();
    suppliers.push({
      supplier_id: supplierId,
      company_name: messyCompanyName(random, name),
      contact_name: random.chance(0.9) ? contact : null,
      email: random.chance(0.92)
        ? faker.internet.email({ firstName: contact.split(" ")[0], provider: `${slug(name)}.example` }).toLowerCase()
        : null,
      phone: random.chance(0.75) ? faker.phone.number({ style: "international" }) : null,
      country: random.weighted(supplierCountries),
      is_preferred: random.chance(0.3),
      onboarded_on: formatDate(parseDate("2018-01-01") + random.int(0, 5 * 365) * DAY_MS),
    });
  }
  // A near duplicate: the same vendor entered a second time with a different spelling.
  const original = suppliers[random.int(0, suppliers.length - 1)] as DemoRow;
  suppliers.push({
    ...original,
    supplier_id: suppliers.length + 1,
    company_name: `${String(original.company_name).trim().toUpperCase()}.`,
    is_preferred: false,
    onboarded_on: formatDate(anchor - random.int(200, 700) * DAY_MS),
  });

  const products: DemoRow[] = [];
  const productFacts: ProductFacts[] = [];
  const usedNames = new Set<string>();
  const skuCounters: Record<string, number> = {};
  for (let productId = 1; productId <= options.productCount; productId++) {
    const chosen = random.weighted(lines.map((entry) => [entry, entry.line.weight] as const));
    let name = "";
    for (let attempt = 0; attempt < 20 && (name === "" || usedNames.has(name)); attempt++) {
      const roll = random.float();
      const qualifier =
        roll < 0.4
          ? random.pick(adjectives)
          : roll < 0.8
            ? random.pick(chosen.materials)
            : `${random.pick(adjectives)} ${random.pick(chosen.materials)}`;
      name = `${qualifier} ${random.pick(chosen.line.nouns)}`;
    }
    if (usedNames.has(name)) name = `${name} ${productId}`;
    usedNames.add(name);
    const [low, high] = chosen.line.priceRange;
    const listPrice = Math.max(low, roundMoney(Math.round(low + (high - low) * random.float() ** 2) - 0.01));
    const launchedAt =
      parseDate("2019-06-01") + random.int(0, Math.floor((anchor - parseDate("2019-06-01")) / DAY_MS) - 45) * DAY_MS;
    const quality = Math.min(4.9, Math.max(1.8, random.normal(4.0, 0.6)));
    const daysOnSale = Math.floor((anchor - launchedAt) / DAY_MS);
    const discontinued = daysOnSale > 240 && random.chance(quality < 3.3 ? 0.3 : 0.06);
    const discontinuedAt = discontinued ? launchedAt + random.int(180, daysOnSale - 30) * DAY_MS : null;
    skuCounters[chosen.skuPrefix] = (skuCounters[chosen.skuPrefix] ?? 0) + 1;
    products.push({
      product_id: productId,
      sku: `${chosen.skuPrefix}-${String(skuCounters[chosen.skuPrefix]).padStart(5, "0")}`,
      name,
      category_id: chosen.categoryId,
      supplier_id: random.int(1, suppliers.length),
      list_price_usd: listPrice,
      unit_cost_usd: roundMoney(listPrice * (0.35 + 0.3 * random.float())),
      weight_kg: random.chance(0.88) ? Math.round((0.2 + random.float() * (listPrice / 20)) * 1000) / 1000 : null,
      color: random.chance(0.7) ? faker.color.human() : null,
      is_discontinued: discontinuedAt !== null,
      launched_on: formatDate(launchedAt),
    });
    productFacts.push({
      discontinuedAt,
      productId,
      listPriceUsd: listPrice,
      launchedAt,
      quality,
      returnRate: Math.max(0.01, (5 - quality) * 0.03),
    });
  }
  return { categories, suppliers, products, productFacts };
}

function messyCompanyName(random: DemoRandom, name: string): string {
  const roll = random.float();
  if (roll < 0.08) return `${name} `;
  if (roll < 0.13) return name.replace(" ", "  ");
  if (roll < 0.17) return name.toUpperCase();
  return name;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
