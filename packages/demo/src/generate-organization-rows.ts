import { DAY_MS, formatDate, parseDate } from "./demo-calendar";
import { type DemoRandom, roundMoney } from "./demo-random";
import type { DemoRow } from "./demo-types";

/** What the order generator needs to know about a store. */
export interface StoreFacts {
  readonly storeId: number;
  readonly channel: "retail" | "online" | "marketplace";
  /** Customer countries this store sells to. */
  readonly servesCountries: readonly string[];
  readonly city: string;
  readonly currency: string;
  readonly openedAt: number;
  readonly closedAt: number | null;
  /** Employees who can take in-store orders; the first one is the store manager (employed the whole time). */
  readonly staff: Array<{ employeeId: number; hiredAt: number; terminatedAt: number | null }>;
}

export interface OrganizationRows {
  readonly stores: DemoRow[];
  readonly employees: DemoRow[];
  readonly storeFacts: StoreFacts[];
}

type StoreSeed = [
  name: string,
  channel: StoreFacts["channel"],
  city: string,
  region: string | null,
  country: string,
  currency: string,
  opened: string,
  closed: string | null,
  serves: string[],
];

const storeSeeds: StoreSeed[] = [
  ["Online US", "online", "Columbus", "OH", "US", "USD", "2019-03-01", null, ["US"]],
  ["Online EU", "online", "Leipzig", "SN", "DE", "EUR", "2020-09-15", null, ["DE", "FR"]],
  ["Online UK", "online", "Milton Keynes", null, "GB", "GBP", "2021-02-01", null, ["GB"]],
  ["Online Canada", "online", "Mississauga", "ON", "CA", "CAD", "2021-05-10", null, ["CA"]],
  ["Marketplace Brasil", "marketplace", "São Paulo", "SP", "BR", "BRL", "2022-04-04", null, ["BR"]],
  ["New York SoHo", "retail", "New York", "NY", "US", "USD", "2019-05-18", null, ["US"]],
  ["Chicago Loop", "retail", "Chicago", "IL", "US", "USD", "2020-03-07", null, ["US"]],
  ["San Francisco Hayes Valley", "retail", "San Francisco", "CA", "US", "USD", "2021-08-21", null, ["US"]],
  ["Seattle Capitol Hill", "retail", "Seattle", "WA", "US", "USD", "2021-10-02", "2024-08-31", ["US"]],
  ["Austin South Congress", "retail", "Austin", "TX", "US", "USD", "2023-09-09", null, ["US"]],
  ["London Covent Garden", "retail", "London", null, "GB", "GBP", "2021-11-13", null, ["GB"]],
  ["Berlin Mitte", "retail", "Berlin", "BE", "DE", "EUR", "2022-03-26", null, ["DE"]],
  ["Paris Le Marais", "retail", "Paris", "IDF", "FR", "EUR", "2023-04-15", null, ["FR"]],
  ["Toronto Queen West", "retail", "Toronto", "ON", "CA", "CAD", "2022-10-01", null, ["CA"]],
];

const salaryUsd: Record<string, [number, number]> = {
  "Chief Executive Officer": [240_000, 260_000],
  "Chief Financial Officer": [190_000, 210_000],
  "VP Retail": [160_000, 175_000],
  "VP E-commerce": [160_000, 175_000],
  "Regional Manager": [105_000, 125_000],
  "E-commerce Manager": [85_000, 105_000],
  "Store Manager": [62_000, 78_000],
  "Customer Service Agent": [38_000, 48_000],
  "Sales Associate": [31_000, 42_000],
  Merchandiser: [48_000, 60_000],
};

/** Generates stores and the employee hierarchy (CEO → VPs → regional/e-commerce managers → store managers → staff). */
export function generateOrganizationRows(random: DemoRandom, options: { anchorDate: string }): OrganizationRows {
  const anchor = parseDate(options.anchorDate);
  const employees: DemoRow[] = [];
  const usedEmails = new Set<string>();
  const hire = (
    jobTitle: string,
    country: string,
    storeId: number | null,
    managerId: number | null,
    hiredAt: number,
    terminatedAt: number | null,
  ): number => {
    const faker = random.fakerFor(country);
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    let email = `${asciiHandle(firstName)}.${asciiHandle(lastName)}@hearthandharbor.example`;
    for (let suffix = 2; usedEmails.has(email); suffix++)
      email = `${asciiHandle(firstName)}.${asciiHandle(lastName)}${suffix}@hearthandharbor.example`;
    usedEmails.add(email);
    const [low, high] = salaryUsd[jobTitle] ?? [40_000, 50_000];
    const employeeId = employees.length + 1;
    employees.push({
      employee_id: employeeId,
      first_name: firstName,
      last_name: lastName,
      email,
      job_title: jobTitle,
      store_id: storeId,
      manager_id: managerId,
      hired_on: formatDate(hiredAt),
      terminated_on: terminatedAt === null ? null : formatDate(terminatedAt),
      annual_salary_usd: roundMoney(Math.round((low + (high - low) * random.float()) / 100) * 100),
    });
    return employeeId;
  };

  const founding = parseDate("2019-01-07");
  const ceo = hire("Chief Executive Officer", "US", null, null, founding, null);
  hire("Chief Financial Officer", "US", null, ceo, founding + 40 * DAY_MS, null);
  const vpRetail = hire("VP Retail", "US", null, ceo, founding + 90 * DAY_MS, null);
  const vpEcommerce = hire("VP E-commerce", "GB", null, ceo, founding + 30 * DAY_MS, null);
  hire("Merchandiser", "US", null, vpRetail, founding + 400 * DAY_MS, null);
  hire("Merchandiser", "DE", null, vpRetail, founding + 900 * DAY_MS, founding + 1500 * DAY_MS);
  const regionalAmericas = hire("Regional Manager", "US", null, vpRetail, parseDate("2019-04-01"), null);
  const regionalEurope = hire("Regional Manager", "DE", null, vpRetail, parseDate("2021-09-01"), null);

  const stores: DemoRow[] = [];
  const storeFacts: StoreFacts[] = [];
  storeSeeds.forEach(([name, channel, city, region, country, currency, opened, closed, serves], index) => {
    const storeId = index + 1;
    const openedAt = parseDate(opened);
    const closedAt = closed === null ? null : parseDate(closed);
    stores.push({
      store_id: storeId,
      name,
      channel,
      city,
      region,
      country,
      currency,
      opened_on: opened,
      closed_on: closed,
    });
    const isRetail = channel === "retail";
    const managerOf = isRetail ? (["US", "CA"].includes(country) ? regionalAmericas : regionalEurope) : vpEcommerce;
    const managerId = hire(
      isRetail ? "Store Manager" : "E-commerce Manager",
      country,
      storeId,
      managerOf,
      openedAt - 30 * DAY_MS,
      closedAt,
    );
    const staff: StoreFacts["staff"] = [
      { employeeId: managerId, hiredAt: openedAt - 30 * DAY_MS, terminatedAt: closedAt },
    ];
    const staffCount = isRetail ? random.int(3, 7) : random.int(2, 4);
    for (let member = 0; member < staffCount; member++) {
      const lastDay = closedAt ?? anchor - 20 * DAY_MS;
      const hiredAt =
        openedAt - 14 * DAY_MS + random.int(0, Math.max(1, Math.floor((lastDay - openedAt) / DAY_MS))) * DAY_MS;
      let terminatedAt: number | null = closedAt;
      if (terminatedAt === null && random.chance(0.25)) {
        terminatedAt = Math.min(anchor - DAY_MS, hiredAt + random.int(60, 900) * DAY_MS);
      }
      const employeeId = hire(
        isRetail ? "Sales Associate" : "Customer Service Agent",
        country,
        storeId,
        managerId,
        hiredAt,
        terminatedAt,
      );
      staff.push({ employeeId, hiredAt, terminatedAt });
    }
    storeFacts.push({ storeId, channel, servesCountries: serves, city, currency, openedAt, closedAt, staff });
  });
  return { stores, employees, storeFacts };
}

/** Lower-case ASCII form of a name for e-mail addresses ("Müller" → "muller"). */
export function asciiHandle(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}
