import { en, Faker } from "@faker-js/faker";
import type { ValueColumn } from "@nlq/engine";
import type { ColumnValues } from "./spider-values";

const KINDS = ["customer_name", "city", "street", "company", "product_name", "contact_name"] as const;

/**
 * Generated columns of realistic names and places (faker, seeded) until `count` values in total,
 * `perColumn` distinct values per column at most. Same seed, same values.
 */
export function* generateColumnValues(count: number, seed = 7, perColumn = 50_000): Generator<ColumnValues> {
  const faker = new Faker({ locale: [en], seed });
  const generators: Record<(typeof KINDS)[number], () => string> = {
    customer_name: () => faker.person.fullName(),
    city: () => faker.location.city(),
    street: () => faker.location.streetAddress(),
    company: () => faker.company.name(),
    product_name: () => faker.commerce.productName(),
    contact_name: () => `${faker.person.lastName()}, ${faker.person.firstName()}`,
  };
  let produced = 0;
  for (let columnNumber = 0; produced < count; columnNumber++) {
    const kind = KINDS[columnNumber % KINDS.length]!;
    const target = Math.min(perColumn, count - produced);
    const values = new Set<string>();
    for (let attempt = 0; values.size < target && attempt < target * 3; attempt++) values.add(generators[kind]());
    const column: ValueColumn = {
      schema: "generated",
      table: `table_${Math.floor(columnNumber / KINDS.length)}`,
      column: kind,
    };
    produced += values.size;
    yield { column, values: [...values] };
  }
}

/** A keyword with one realistic typo (swap, drop, double, substitute a letter) and random lower-casing. */
export function typoKeyword(value: string, random: () => number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const position = 1 + Math.floor(random() * Math.max(1, value.length - 2));
  let typo: string;
  switch (Math.floor(random() * 4)) {
    case 0:
      typo = value.slice(0, position - 1) + value[position] + value[position - 1] + value.slice(position + 1);
      break;
    case 1:
      typo = value.slice(0, position) + value.slice(position + 1);
      break;
    case 2:
      typo = value.slice(0, position) + value[position] + value.slice(position);
      break;
    default:
      typo = value.slice(0, position) + letters[Math.floor(random() * letters.length)] + value.slice(position + 1);
  }
  return random() < 0.5 ? typo.toLowerCase() : typo;
}
